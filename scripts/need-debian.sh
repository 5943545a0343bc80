#!/usr/bin/env bash
# Installs the Debian packages whose commands are missing, so scripts run on
# a clean machine (CI, a fresh container).
#
#   scripts/need-debian.sh COMMAND:PACKAGE...     e.g. nvim:neovim lua5.4:lua5.4
set -euo pipefail
missing=()
for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]} (apt-get)" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
