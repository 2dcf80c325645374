"""``python -m bench [--json] [--quick] [--pg URL | --no-pg]``: run the whole suite."""

from __future__ import annotations

import argparse
import json
import sys


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--quick", action="store_true", help="smaller workloads (a smoke run)")
    p.add_argument("--pg", default=None,
                   help="PostgreSQL URL (default $PRIVATEER_BENCH_PG or postgresql://postgres@127.0.0.1:5432/test)")
    p.add_argument("--no-pg", action="store_true", help="skip the PostgreSQL rows")
    p.add_argument("--no-http", action="store_true", help="skip the HTTP rows")
    args = p.parse_args(argv)

    from .suite import print_report, run_suite

    results = run_suite(quick=args.quick, pg_url=None if args.no_pg else (args.pg or ""),
                        http=not args.no_http, progress=not args.json)
    if args.json:
        json.dump(results, sys.stdout, indent=2, default=str)
        sys.stdout.write("\n")
    else:
        print_report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
