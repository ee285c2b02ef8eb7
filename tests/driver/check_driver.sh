#!/usr/bin/env bash
# Checks the amp driver's answers that need no build: help lists the two commands; an unknown
# command or proxy ends non-zero with one "amp: error:" line naming it.
set -u
amp=$1 case=$2
case "$case" in
  help)
    out=$("$amp" help) || { echo "help exited non-zero"; exit 1; }
    grep -q "./amp run" <<<"$out" && grep -q "./amp test" <<<"$out" || { echo "help lacks the two commands"; exit 1; } ;;
  unknown_command)
    err=$("$amp" frobnicate 2>&1 >/dev/null) && { echo "unknown command accepted"; exit 1; }
    grep -q "^amp: error: unknown command 'frobnicate'" <<<"$err" || { echo "message was: $err"; exit 1; } ;;
  unknown_proxy)
    # The proxy name is checked before anything is installed or built.
    err=$("$amp" run frobnicate 2>&1 >/dev/null) && { echo "unknown proxy accepted"; exit 1; }
    grep -q "unknown proxy 'frobnicate'" <<<"$err" || { echo "message was: $err"; exit 1; } ;;
esac
echo "driver $case: ok"
