"""One module per attack class; each `scenario_*(args)` prints its rows through `common.row`."""
