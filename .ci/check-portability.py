#!/usr/bin/env python3
"""Fails when a Swift file imports a platform module outside a `#if canImport(<that module>)`
block: users build on macOS and Linux (Glibc, Musl, Darwin, WinSDK, FoundationXML, ...)."""
import pathlib
import re
import sys

PLATFORM = {"Glibc", "Musl", "Darwin", "WinSDK", "Android", "FoundationXML", "FoundationNetworking"}
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|func|var|let|protocol|typealias)\s+)?(\w+)")
CONDITION = re.compile(r"canImport\((\w+)\)")

def problems(path):
    stack = []  # the modules each open #if/#elseif branch guards
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("#if"):
            stack.append(set(CONDITION.findall(stripped)))
        elif stripped.startswith("#elseif"):
            if stack:
                stack[-1] = set(CONDITION.findall(stripped))
        elif stripped.startswith("#else"):
            if stack:
                stack[-1] = set()
        elif stripped.startswith("#endif"):
            if stack:
                stack.pop()
        else:
            match = IMPORT.match(line)
            if match and match.group(1) in PLATFORM and not any(match.group(1) in guard for guard in stack):
                yield f"{path}:{number}: 'import {match.group(1)}' outside '#if canImport({match.group(1)})'"

def main(roots):
    found = [p for root in roots for f in sorted(pathlib.Path(root).rglob("*.swift")) if ".build" not in f.parts for p in problems(f)]
    for p in found:
        print(p)
    print(f"portability: {len(found)} unguarded platform import(s)")
    return 1 if found else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["Sources", "Tests", "Examples"]))
