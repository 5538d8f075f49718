"""An MDX page's tabs read as the built page shows them: each ``<TabItem>`` by its label (task U24). The tags were
taken out with their labels, so three install commands, or one example per language, stood in a row unnamed where
Docusaurus' page reads "npm", "Yarn", "pnpm" over each."""

from __future__ import annotations

from clew.corpus.ingest.formats.markdown import parse_mdx

DOCUSAURUS_TABS = """---
title: Installation
---

import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';

## Install

<Tabs groupId="package-manager">
  <TabItem value="npm" label="npm" default>

```bash
npm install undici
```

  </TabItem>
  <TabItem value="yarn" label='Yarn'>

```bash
yarn add undici
```

  </TabItem>
  <TabItem value="pnpm">

```bash
pnpm add undici
```

  </TabItem>
</Tabs>

A <TabItem value="x" label="tag"> written in a sentence is not a tab's label.
"""


def test_an_mdx_tab_reads_as_its_label_over_its_content() -> None:
    document = parse_mdx(DOCUSAURUS_TABS)
    document.check()
    text = document.text
    assert "npm\n\n```bash\nnpm install undici\n```" in text
    assert "Yarn\n\n```bash\nyarn add undici\n```" in text
    assert "pnpm\n\n```bash\npnpm add undici\n```" in text  # no label: its value, as Docusaurus shows it
    assert "A  written in a sentence is not a tab's label." in text
    assert "TabItem" not in text and "groupId" not in text
    codes = [text[b.start:b.end] for b in document.blocks if b.kind == "code"]
    assert codes == ["```bash\nnpm install undici\n```", "```bash\nyarn add undici\n```",
                     "```bash\npnpm add undici\n```"]
