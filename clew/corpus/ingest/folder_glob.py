"""The files a glob matches in a folder given to ingest (``sources.find_files``): a glob is checked before anything
is read (:func:`check_glob`), then matched inside each folder (:func:`glob_matches`)."""

from __future__ import annotations

from pathlib import Path

from clew.errors import InputError


def check_glob(glob: str) -> None:
    """Raise ``InputError`` (field ``glob``) unless ``glob`` is a relative pattern that stays inside a folder."""
    if not glob.strip():
        raise InputError("glob", "the glob is empty: it matches nothing (every file: '**/*')")
    if glob.startswith("/") or Path(glob).is_absolute() or Path(glob).drive:
        raise InputError("glob", f"{glob!r} is absolute: a glob is matched inside each folder given (e.g. '**/*.md')")
    parts = Path(glob).parts
    if ".." in parts:
        raise InputError("glob", f"{glob!r} leaves the folder it is matched in ('..')")
    bad = next((part for part in parts if "**" in part and part != "**"), None)
    if bad is not None:
        raise InputError("glob", f"{glob!r}: '**' must be a whole path component (found {bad!r}; e.g. '**/*.md')")
    if not parts or all(part == "." for part in parts):
        raise InputError("glob", f"{glob!r} names the folder itself, no file in it (every file: '**/*')")


def glob_matches(root: Path, glob: str, follow_symlinks: bool) -> list[Path]:
    """What ``glob`` matches under ``root``, sorted; with ``follow_symlinks`` a ``**`` glob also
    matches inside the folders that links under ``root`` point to (pathlib's ``**`` does not
    descend into them), each real folder once, so a link loop ends."""
    try:
        matches = set(root.glob(glob))
        if follow_symlinks and glob.startswith("**"):
            visited = {root.resolve()}
            pending = [root]
            while pending:
                folder = pending.pop()
                try:
                    entries = sorted(folder.iterdir())
                except OSError:  # an unreadable folder: nothing in it can be read either
                    continue
                for entry in entries:
                    if not entry.is_dir():
                        continue
                    real = entry.resolve()
                    if real in visited:
                        continue
                    visited.add(real)
                    pending.append(entry)
                    if entry.is_symlink():
                        matches.update(entry.glob(glob))
    except (ValueError, NotImplementedError, IndexError) as error:  # what pathlib refuses beyond check_glob
        raise InputError("glob", f"{glob!r} is not a usable glob: {error}") from error
    return sorted(matches)
