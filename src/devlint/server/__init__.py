"""`devlint server`: a Language Server Protocol server over stdio, on pygls (`devlint[lsp]`).

Diagnostics, quick fixes, `# noqa` actions and rule docs on hover, from the same engine and
configuration as `devlint check`. Only this package imports pygls: `devlint check` never does.
"""
