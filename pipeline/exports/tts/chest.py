"""The Saved Objects folder (TTS's in-game "chest") on each system, and copying an export's JSON + thumbnail pair
into it (EXPORTS.md §1.1: the folders tts-deckconverter hard-codes).

The installed JSON still points at its images where the export put them (file:///…/output/<game>/tts/ by
default): the images are not copied, so the output folder must stay where it is, or the export must be made with
a --base-url to hosted copies.
"""

from __future__ import annotations

import os
import platform
import shutil
from pathlib import Path
from typing import Mapping

SAVED_OBJECTS = ("Tabletop Simulator", "Saves", "Saved Objects")


def chest_folder(system: str | None = None, home: Path | None = None, env: Mapping | None = None) -> Path:
    """Where TTS keeps Saved Objects for `system` ("Windows", "Darwin", "Linux"; default: this machine's):
    Windows `%USERPROFILE%\\Documents\\My Games\\Tabletop Simulator\\Saves\\Saved Objects`, macOS
    `~/Library/Tabletop Simulator/Saves/Saved Objects`, Linux `~/.local/share/Tabletop Simulator/Saves/Saved
    Objects`. Raises ValueError for any other system (TTS runs on these three only)."""
    system = system or platform.system()
    env = os.environ if env is None else env
    home = home or Path.home()
    if system == "Windows":
        profile = env.get("USERPROFILE")
        return Path(profile or home).joinpath("Documents", "My Games", *SAVED_OBJECTS)
    if system == "Darwin":
        return home.joinpath("Library", *SAVED_OBJECTS)
    if system == "Linux":
        return home.joinpath(".local", "share", *SAVED_OBJECTS)
    raise ValueError(f"Tabletop Simulator has no known Saved Objects folder on {system!r}")


def install(json_path: Path, png_path: Path, folder: Path | None = None) -> list[Path]:
    """Copy the Saved Object's JSON and its thumbnail into `folder` (default: this machine's chest folder),
    creating it; the two destinations, JSON first."""
    folder = chest_folder() if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    destinations = []
    for source in (json_path, png_path):
        target = folder / source.name
        shutil.copyfile(source, target)
        destinations.append(target)
    return destinations
