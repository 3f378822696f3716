"""Drawing: templates, text, faces, imposition. Knows nothing of any game's rules."""
