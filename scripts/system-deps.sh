#!/usr/bin/env bash
# Installs the Debian libraries Qt needs (offscreen and xcb) and Xvfb, when
# they are missing and we may (root with apt-get); poppler-utils gives pdfsig, the second,
# non-Python validator of sealed PDFs; chromium is the browser of the public pages' tests
# (Playwright drives Debian's build: no browser download); xdotool types into a real
# window under Xvfb as a wedge scanner or a password manager does. Otherwise says what is
# missing and carries on: tests that need a real window skip with a reason.
set -u
PKGS="libegl1 libgl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0 fonts-dejavu-core
libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-randr0 libxcb-render-util0
libxcb-shape0 libxcb-xkb1 libxkbcommon-x11-0 xvfb xauth xdotool poppler-utils chromium"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing system packages:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null 2>&1 || true
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1 \
    || echo "warning: could not install:$missing" >&2
else
  echo "warning: missing system packages (install them as root):$missing" >&2
fi
exit 0
