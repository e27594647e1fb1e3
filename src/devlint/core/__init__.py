"""What every layer shares: the codes devlint reports, a selection of them, a finding and its
fix, text lines, and the bounds on work. It imports nothing from devlint's layers, so `lint/`,
`workspace/`, `verify/` and the faces can all import it without a cycle."""
