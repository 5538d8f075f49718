"""The loop controller: a state machine that searches, navigates and answers under budgets."""
