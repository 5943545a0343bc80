#!/usr/bin/env bash
# Installs the Debian packages whose commands are missing, so scripts run on
# a clean machine (CI, a fresh container). Recommended packages are left out
# and the downloaded archives deleted: a CI machine's disk can be nearly full
# (one run stopped with "No space left on device" while compiling), and
# emacs-nox's recommendations (a mail server, a database client, libgccjit)
# would take 68 MB more for nothing the scripts use.
#
#   scripts/need-debian.sh COMMAND:PACKAGE...     e.g. nvim:neovim lua5.4:lua5.4
set -euo pipefail
missing=()
for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]} (apt-get)" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    apt-get clean
fi
