#!/usr/bin/env bash
# A new user's first hour, end to end, on the built distribution (issue 12's "done when"):
# unpack libra-<version>.tar.gz, run bin/libra on the shipped examples, check the one-line errors,
# start bin/libra-sidecar against a taken port and against no Cassandra and check that it exits
# non-zero at once with one line, and render the report in headless Chromium (scripts/report-check.sh;
# installed from Debian's packages when run as root, as in CI). Stops by itself (every command under
# a timeout); under a minute once Chromium is installed. LIBRA_KEEP_SCREENSHOT=FILE keeps the PNG.
#
#   scripts/newcomer-check.sh            # uses libra-cli/target/libra-*.tar.gz, building it if absent
#   LIBRA_DIST=path/to/libra-x.tar.gz scripts/newcomer-check.sh
#
# Needs a JDK 17 and python3 (to pick a free port and hold one taken). CI (.ci/run) runs it after
# the tests. Prints one line per check and closes with "check: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
repo=$(pwd)
passed=0
failed=0
work=$(mktemp -d "${TMPDIR:-/tmp}/libra-newcomer.XXXXXX")
holder=""
cleanup() {
  if [ -n "$holder" ]; then kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/     | /' "$2" | head -20; }

# run NAME EXPECTED_CODE SECONDS CMD...: runs CMD with a deadline, keeps stdout/stderr in $out/$err
run() {
  local name=$1 want=$2 secs=$3
  shift 3
  out=$work/$name.out
  err=$work/$name.err
  timeout "$secs" "$@" >"$out" 2>"$err"
  code=$?
  if [ "$code" -ne "$want" ]; then
    fail "$name: exit $code, expected $want" "$err"
    return 1
  fi
  return 0
}

# one_line NAME PATTERN: stderr is exactly one line matching PATTERN, and no stack trace
one_line() {
  local name=$1 pattern=$2
  if [ "$(wc -l <"$err")" -eq 1 ] && grep -Eq -- "$pattern" "$err" && ! grep -q $'^\tat ' "$err"; then
    ok "$name: $(cat "$err")"
  else
    fail "$name: stderr is not one line matching '$pattern'" "$err"
  fi
}

contains() {
  local name=$1 file=$2 text=$3
  if grep -Fq -- "$text" "$file"; then ok "$name"; else fail "$name: no '$text'" "$file"; fi
}

# --- the distribution -------------------------------------------------------------------------
dist=${LIBRA_DIST:-$(ls libra-cli/target/libra-*.tar.gz 2>/dev/null | head -1)}
if [ -z "$dist" ]; then
  echo "building the distribution (./mvnw -B -q package -DskipTests) ..."
  ./mvnw -B -q package -DskipTests >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; echo "check: 0 passed, 1 failed"; exit 1; }
  dist=$(ls libra-cli/target/libra-*.tar.gz | head -1)
fi
tar xzf "$dist" -C "$work" || { echo "check: 0 passed, 1 failed"; exit 1; }
home=$(ls -d "$work"/libra-*/ | head -1)
home=${home%/}
for f in bin/libra bin/libra-sidecar lib/libra.jar lib/libra-cassandra.jar conf/sidecar.example.yaml \
         conf/hbase-site.libra.xml conf/libra-sidecar.service docs/cli.md docs/formats.md examples/mixgraph-8nodes.snapshot.json; do
  if [ -e "$home/$f" ]; then ok "archive has $f"; else fail "archive has no $f"; fi
done
if [ "$(ls "$home"/hbase/)" = "$(basename "$(ls "$home"/hbase/libra-hbase-*-shaded.jar 2>/dev/null)")" ]; then
  ok "archive has the shaded HBase adapter jar, alone: $(ls "$home"/hbase/)"
else
  fail "archive's hbase/ is not just libra-hbase-*-shaded.jar: $(ls "$home"/hbase/ | tr '\n' ' ')"
fi
if grep -Eq '<name>hbase.libra.dry.run</name><value>true</value>' "$home/conf/hbase-site.libra.xml" \
   && ! grep -q '<value>false</value>' "$home/conf/hbase-site.libra.xml"; then
  ok "hbase-site snippet leaves dry run on"
else
  fail "hbase-site snippet does not leave dry run on" "$home/conf/hbase-site.libra.xml"
fi

libra="$home/bin/libra"
ex="$home/examples"

# --- bin/libra on the shipped examples -----------------------------------------------------------
run version 0 30 "$libra" --version && contains "libra --version" "$out" "libra "
run help 0 30 "$libra" --help && contains "libra --help lists simulate" "$out" "simulate"
run typo 2 30 "$libra" plna && contains "a mistyped command suggests the right one" "$err" "Did you mean: libra plan"
run plan 0 60 "$libra" plan --snapshot "$ex/mixgraph-8nodes.snapshot.json" --out "$work/plan.json" \
  && contains "plan on mixgraph-8nodes" "$out" "status planned"
run explain 0 60 "$libra" explain --snapshot "$ex/mixgraph-8nodes.snapshot.json" --plan "$work/plan.json" \
  && contains "explain the plan" "$out" "imbalance degree"
run evaluate 0 60 "$libra" evaluate --snapshot "$ex/mixgraph-8nodes.snapshot.json" --plan "$work/plan.json" \
  && contains "evaluate the plan" "$out" "fits"
run compare 0 60 "$libra" compare --snapshot "$ex/heterogeneous-6nodes.snapshot.json" \
  && contains "compare on heterogeneous-6nodes" "$out" "2d-wtd"
run simulate 0 120 "$libra" simulate --nodes 4 --regions 32 --rounds 2 --strategies libra,2d-iso --report "$work/report" \
  && contains "simulate small" "$out" "end state" && contains "simulate --report writes the report" "$work/report/index.html" "<svg"
run missing 2 30 "$libra" plan --snapshot "$work/missing.json" && one_line "missing snapshot" "missing.json: no such file$"
run huge 2 30 "$libra" simulate --regions 2000000000 && one_line "simulate --regions 2000000000" "^libra: --regions: at most"
run many-nodes 2 30 "$libra" simulate --nodes 100000 && one_line "simulate --nodes 100000" "^libra: --nodes: at most"

# snapshot capture from a small local HTTP server serving an example (as a sidecar would) ...
serve_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/www/before-first-run"
cp "$ex"/*.json "$work/www/"
python3 - "$ex/ycsb-a-4nodes.snapshot.json" "$work/www" <<'PY'
import json, sys
bean = {"name": "io.libra:type=BalancerSnapshot", "modelerType": "io.libra.hbase.balancer.SnapshotExport$Bean"}
with open(sys.argv[1]) as f:
    snapshot = f.read()
for path, text in (("jmx", snapshot), ("before-first-run/jmx", "")):
    with open(sys.argv[2] + "/" + path, "w") as f:
        json.dump({"beans": [dict(bean, Snapshot=text, CapturedAt="", Nodes=0, Regions=0)]}, f, indent=2)
PY
python3 -m http.server "$serve_port" --bind 127.0.0.1 --directory "$work/www" >/dev/null 2>&1 &
holder=$!
for _ in $(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $serve_port), 0.2)" 2>/dev/null && break; sleep 0.1; done
run capture 0 30 "$libra" snapshot capture --from "http://127.0.0.1:$serve_port/ycsb-a-4nodes.snapshot.json" --out "$work/captured.json" \
  && contains "snapshot capture over HTTP" "$out" "4 nodes, 32 regions" \
  && if cmp -s "$work/captured.json" "$ex/ycsb-a-4nodes.snapshot.json"; then ok "captured byte for byte"; else fail "captured file differs"; fi
# ... and from an HBase master's /jmx (the JSON HBase's JMX servlet gives for Libra's bean)
run capture-master 0 30 "$libra" snapshot capture --hbase-master "127.0.0.1:$serve_port" --out "$work/master.json" \
  && contains "snapshot capture --hbase-master unwraps the bean" "$out" "4 nodes, 32 regions" \
  && if cmp -s "$work/master.json" "$ex/ycsb-a-4nodes.snapshot.json"; then ok "captured from the master byte for byte"; else fail "master capture differs"; fi
run capture-master-empty 1 30 "$libra" snapshot capture --from "http://127.0.0.1:$serve_port/before-first-run/jmx" \
  && one_line "snapshot capture before the master's first balance run" ": no snapshot yet: "
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; holder=""
run capture-refused 1 30 "$libra" snapshot capture --from "http://127.0.0.1:$serve_port" --timeout 5 \
  && one_line "snapshot capture with nobody listening" "cannot connect"

# the report in a real headless browser (scripts/report-check.sh: fits the page at 64 nodes, screenshot)
bash "$repo/scripts/report-check.sh" "$libra" "$work/report-check" >"$work/report-check.txt" 2>&1
report_status=$?
while IFS= read -r line; do
  case "$line" in
    "ok   "*) ok "${line#ok   }" ;;
    "FAIL "*) fail "${line#FAIL }" ;;
    *) echo "     $line" ;;
  esac
done <"$work/report-check.txt"
[ "$report_status" -eq 0 ] || grep -q '^FAIL ' "$work/report-check.txt" || fail "scripts/report-check.sh exited $report_status" "$work/report-check.txt"
if [ -n "${LIBRA_KEEP_SCREENSHOT:-}" ] && [ -f "$work/report-check/report.png" ]; then cp "$work/report-check/report.png" "$LIBRA_KEEP_SCREENSHOT"; fi

# --- bin/libra-sidecar ---------------------------------------------------------------------------
sidecar="$home/bin/libra-sidecar"
run sidecar-help 0 30 "$sidecar" --help && contains "libra-sidecar --help lists --config" "$out" "--config" \
  && contains "libra-sidecar --help lists --check" "$out" "--check"
run sidecar-version 0 30 "$sidecar" --version && contains "libra-sidecar --version" "$out" "libra-sidecar "
# four free ports: HTTP, and JMX for the example's three nodes (so "no Cassandra" holds even where
# something else listens on the example's 7100/7200/7300)
read -r port jmx1 jmx2 jmx3 < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(4)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')
mkdir -p "$work/journal"
sed -e "s|^\(  *\)port: 9044|\1port: $port|" -e "s|^\(  *\)journal: .*|\1journal: $work/journal/journal.json|" \
  -e "s|jmx_port: 7100|jmx_port: $jmx1|" -e "s|jmx_port: 7200|jmx_port: $jmx2|" -e "s|jmx_port: 7300|jmx_port: $jmx3|" \
  "$home/conf/sidecar.example.yaml" >"$work/sidecar.yaml"
if grep -q "port: $port" "$work/sidecar.yaml" && grep -q "jmx_port: $jmx3" "$work/sidecar.yaml"; then
  ok "sidecar config from conf/sidecar.example.yaml"
else
  fail "conf/sidecar.example.yaml no longer has http port 9044 and jmx ports 7100-7300" "$work/sidecar.yaml"
fi
export LIBRA_SIDECAR_TOKEN=newcomer-check-token-0123456789
: >"$work/empty.yaml"
run sidecar-empty-config 2 20 "$sidecar" --config "$work/empty.yaml" \
  && one_line "sidecar with an empty config" "^libra-sidecar: .*empty.yaml: " \
  && if grep -q "No content to map" "$err"; then fail "empty config error speaks Jackson" "$err"; fi
printf 'cluster_name: [a, b]\n' >"$work/list.yaml"
run sidecar-list-config 2 20 "$sidecar" --config "$work/list.yaml" \
  && one_line "sidecar with a list for a text field names the field" "^libra-sidecar: .*list.yaml: cluster_name: "
sed 's/max_moves: [0-9]*/max_moves: -1/' "$work/sidecar.yaml" >"$work/negative.yaml"
run sidecar-negative 2 20 "$sidecar" --config "$work/negative.yaml" \
  && one_line "sidecar with max_moves -1 names the field" "planner.max_moves: "
# no Cassandra: nothing listens on the example's JMX ports
run sidecar-no-cassandra 1 20 "$sidecar" --config "$work/sidecar.yaml" \
  && one_line "sidecar without Cassandra exits at once" "^libra-sidecar: JMX: "
# a taken port: hold it with a listener, then start the sidecar on it
python3 -c "import socket,time; s=socket.socket(); s.bind(('127.0.0.1', $port)); s.listen(); time.sleep(60)" &
holder=$!
for _ in $(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break; sleep 0.1; done
run sidecar-port-taken 1 20 "$sidecar" --config "$work/sidecar.yaml" \
  && one_line "sidecar on a taken port exits at once" "^libra-sidecar: http.port: cannot listen on 127.0.0.1:$port"
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; holder=""

echo "check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
