#!/usr/bin/env bash
# Renders `libra simulate --report` in a real headless browser (Chromium from Debian's packages)
# and checks what a reader sees: the page lays out within a 1100 px wide window at 64 nodes (no
# chart or block sticks out on the right), and a full-page screenshot is a real, non-blank PNG.
#
#   scripts/report-check.sh LIBRA_COMMAND OUT_DIR      e.g. scripts/report-check.sh dist/bin/libra /tmp/report-check
#
# Without chromium it installs it when it may (root with apt-get, as in CI), else it says
# "skipped" and exits 0. Prints "ok"/"FAIL" lines; exit status 1 on any failure. About 20 s.
set -u
libra=$1
out=$2
mkdir -p "$out"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing chromium from Debian's packages (once) ..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >"$out/apt.log" 2>&1 || tail -5 "$out/apt.log"
  browser=$(command -v chromium || true)
fi
if [ -z "$browser" ]; then
  echo "skipped report screenshot: no chromium (apt-get install chromium)"
  exit 0
fi
failed=0
ok() { echo "ok   $1"; }
fail() { failed=1; echo "FAIL $1"; }
chrome() {
  timeout 90 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$out/profile" --allow-file-access-from-files "$@" 2>>"$out/chromium.log"
}

timeout 120 "$libra" simulate --nodes 64 --regions 256 --rounds 4 --report "$out/report" >"$out/simulate.txt" 2>&1 \
  || { cat "$out/simulate.txt"; exit 1; }
report="$out/report/index.html"

# layout: a page that loads the report in a 1100 px frame and writes its scroll width into the DOM
cat >"$out/measure.html" <<HTML
<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="report/index.html" style="width:1100px;height:900px;border:0"
 onload="var d=this.contentDocument.documentElement; document.body.setAttribute('data-scroll-width', d.scrollWidth);
         document.body.setAttribute('data-height', d.scrollHeight);"></iframe></body></html>
HTML
dom=$(chrome --virtual-time-budget=10000 --dump-dom "file://$out/measure.html")
width=$(printf '%s' "$dom" | grep -o 'data-scroll-width="[0-9]*"' | grep -o '[0-9]*')
height=$(printf '%s' "$dom" | grep -o 'data-height="[0-9]*"' | grep -o '[0-9]*')
if [ -n "$width" ] && [ "$width" -le 1100 ]; then
  ok "report at 64 nodes fits a 1100 px window (scroll width $width px, height ${height:-?} px)"
else
  fail "report at 64 nodes is ${width:-unmeasured} px wide in a 1100 px window"
fi

# screenshot of the whole page
chrome --window-size=1100,"${height:-4000}" --screenshot="$out/report.png" "file://$report" >/dev/null
if python3 - "$out/report.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
# a blank page compresses to almost nothing; charts, bars and text do not
raw = b"".join(data[i + 8:i + 8 + struct.unpack(">I", data[i:i + 4])[0]]
               for i in [p - 4 for p in range(len(data)) if data[p:p + 4] == b"IDAT"])
pixels = zlib.decompress(raw)
distinct = len(set(pixels[k:k + 3] for k in range(1, min(len(pixels), 3_000_000), 997)))
print(f"{w}x{h}, {len(data)} bytes, {distinct} distinct sampled colours")
sys.exit(0 if w == 1100 and h > 2000 and len(data) > 100_000 and distinct > 20 else 1)
PY
then
  ok "screenshot $out/report.png"
else
  fail "screenshot $out/report.png is missing or blank"
fi
exit $failed
