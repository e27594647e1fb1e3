from devlint.cli import main

raise SystemExit(main())
