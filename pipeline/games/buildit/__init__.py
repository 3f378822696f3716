"""Build It (`buildit`): a 2–4 player city-building game on an 8×8 board."""
