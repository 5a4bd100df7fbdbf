"""The simulation wing: bot games played headless (`simulate`, `balance`), example
saves made from them (`examples`) and a progress bar for long runs. No Textual."""
