#!/usr/bin/env bash
# Checks that every C++ file of model/, tb/, tests/ and fuzz/ is formatted as the committed .clang-format
# says (clang-format --dry-run -Werror); names each file that differs and exits 1 when one does.
#   scripts/check_format.sh [CLANG_FORMAT]    (default: clang-format-14, else clang-format)
#   clang-format-14 -i FILE...                 formats them
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:-$(command -v clang-format-14 || command -v clang-format || true)}
if [ -z "$tool" ]; then
  echo "check_format: clang-format not found (scripts/setup.sh installs it)" >&2
  exit 2
fi
cd "$root" || exit 2
mapfile -t files < <(find model tb tests fuzz -name '*.h' -o -name '*.cpp' | sort)
# One run over every file; its warnings name each file that differs (file:line:col: error: ...).
report=$("$tool" --style=file --dry-run -Werror "${files[@]}" 2>&1 >/dev/null)
tool_status=$?
mapfile -t differ < <(printf '%s\n' "$report" |
  sed -nE 's/^([^:]+):[0-9]+:[0-9]+: (error|warning): .*/\1/p' | sort -u)
# A failure that names no file is the formatter's own (a bad .clang-format, a crash).
if [ $tool_status -ne 0 ] && [ ${#differ[@]} -eq 0 ]; then
  echo "check_format: $tool failed (exit $tool_status):" >&2
  printf '%s\n' "$report" | head -5 >&2
  exit 2
fi
if [ ${#differ[@]} -gt 0 ]; then
  echo "format: ${#differ[@]} of ${#files[@]} files differ from .clang-format ($("$tool" --version)):"
  printf '  %s\n' "${differ[@]}"
  echo "fix: $(basename "$tool") -i FILE..."
  exit 1
fi
echo "format: ${#files[@]} files match .clang-format"
