#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The expected JSON outputs of the CLI cases are valid JSON without NaN or
infinity, and every "undefined" member (issue 17) is an object of reasons
(non-empty strings) whose names are members of the same object with the
value null.  Each non-empty line of expected-stdout is parsed on its own
when the whole does not parse as one document (one object per line).

Usage: json_cases.py TOOL_CASE_DIR...   (exit 0 ok, 1 a fault)
"""

import json
import os
import sys


def no_constant(name):
    raise ValueError('%s in JSON' % name)


def check(value, where, faults):
    if isinstance(value, list):
        for v in value:
            check(v, where, faults)
    elif isinstance(value, dict):
        und = value.get('undefined')
        if und is not None:
            if not isinstance(und, dict):
                faults.append('%s: "undefined" is not an object' % where)
            else:
                for name, why in und.items():
                    if name not in value or value[name] is not None:
                        faults.append('%s: undefined.%s names no null member' % (where, name))
                    if not isinstance(why, str) or not why:
                        faults.append('%s: undefined.%s has no reason' % (where, name))
        for v in value.values():
            check(v, where, faults)


def main():
    faults, checked = [], 0
    for d in sys.argv[1:]:
        for case in sorted(os.listdir(d)):
            args = os.path.join(d, case, 'args')
            out = os.path.join(d, case, 'expected-stdout')
            if not os.path.isfile(args) or not os.path.isfile(out):
                continue
            with open(args, encoding='utf-8', errors='replace') as f:
                a = f.read().split('\n')
            # the last --format given decides
            last = max(([i for i, x in enumerate(a) if x.startswith('--format')] or [-1]))
            if last < 0:
                continue
            x = a[last]
            if (x[len('--format='):] if x.startswith('--format=') else
                    a[last + 1] if last + 1 < len(a) else '') != 'json':
                continue
            with open(out, encoding='utf-8') as f:
                text = f.read()
            where = os.path.join(os.path.basename(d), case)
            try:
                docs = [json.loads(text, parse_constant=no_constant)]
            except ValueError:
                try:
                    docs = [json.loads(line, parse_constant=no_constant)
                            for line in text.splitlines() if line.strip()]
                except ValueError as e:
                    faults.append('%s: not JSON: %s' % (where, e))
                    continue
            for doc in docs:
                check(doc, where, faults)
            checked += 1
    for f in faults:
        print('FAIL ' + f)
    print('%d JSON outputs checked, %d faults' % (checked, len(faults)))
    return 1 if faults or checked == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
