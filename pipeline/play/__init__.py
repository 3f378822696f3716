"""Running games: the seeded driver and everything that plays or counts complete games, below the games.

The engine contract and the Simulation record a game declares (contract), one seeded game and batches of
them as a worker runs them (worker), where batches are played, a local pool or Dask (executors), the run
driver of `pnp simulate` and validation stage 6 (driver), statistics and Wilson intervals (stats), balance
metrics (metrics), rates of counters (ratios), the same seeds under other rules (variants), and balance
gates played and judged (gates). Nothing here imports the game registry: games plug in through the
Simulation record.

May import: core and data."""
