"""All-Star Draft: a hockey drafting game for 2–6 managers (shared/games/all-star-draft.md)."""
