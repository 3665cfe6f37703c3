#!/usr/bin/env bash
# Re-vendor the web client's two libraries from their npm tarballs (make vendor-web):
# one file of each, copied into web/vendor/ with its licence, and web/vendor/README
# rewritten with each file's package, version, licence and sha256. No CDN at run time:
# the server serves these copies. Versions: HTM and MSGPACK below (npm semver ranges).
# Also axe-core, for the tests only (tests/web/vendor/: the page never loads it).
set -euo pipefail
cd "$(dirname "$0")/.."
HTM=${HTM:-htm@3}
MSGPACK=${MSGPACK:-@msgpack/msgpack@3}
AXE=${AXE:-axe-core@4.14.1}
out=web/vendor
tests_out=tests/web/vendor
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

unpack() {  # unpack SPEC DIR: npm pack SPEC, untar into DIR, print the version
    local tarball
    tarball=$(cd "$work" && npm pack --silent "$1" | tail -n 1)
    mkdir -p "$work/$2"
    tar xzf "$work/$tarball" -C "$work/$2"
    node -e 'process.stdout.write(require(process.argv[1]).version)' "$work/$2/package/package.json"
}

htm_version=$(unpack "$HTM" htm)
msgpack_version=$(unpack "$MSGPACK" msgpack)
axe_version=$(unpack "$AXE" axe)
cp "$work/htm/package/preact/standalone.module.js" "$out/preact-htm.mjs"
cp "$work/htm/package/LICENSE" "$out/LICENSE.htm"
cp "$work/msgpack/package/dist.umd/msgpack.min.js" "$out/msgpack.min.js"
cp "$work/msgpack/package/LICENSE" "$out/LICENSE.msgpack"
mkdir -p "$tests_out"
cp "$work/axe/package/axe.min.js" "$tests_out/axe.min.js"
cp "$work/axe/package/LICENSE" "$tests_out/LICENSE.axe-core"
cp "$work/axe/package/LICENSE-3RD-PARTY.txt" "$tests_out/LICENSE-3RD-PARTY.axe-core.txt"
# the minified file points at a source map we do not ship
sed -i '/^\/\/# sourceMappingURL=/d' "$out/msgpack.min.js"
sed -i 's|//# sourceMappingURL=[^ ]*$||' "$out/msgpack.min.js"

sum() { sha256sum "$1" | cut -d' ' -f1; }
cat > "$out/README" <<README
Vendored browser libraries of the web client (re-vendor: make vendor-web, which runs
tools/vendor-web.sh; never edit these files by hand). The server serves them from
memory; nothing is fetched from a CDN.

preact-htm.mjs
  npm package: htm ${htm_version}, file preact/standalone.module.js
  (htm and Preact in one ES module: html, render, h, hooks)
  licence: Apache-2.0 (htm; LICENSE.htm), bundling Preact (MIT)
  sha256: $(sum "$out/preact-htm.mjs")

msgpack.min.js
  npm package: @msgpack/msgpack ${msgpack_version}, file dist.umd/msgpack.min.js
  (a classic script: defines the global MessagePack; its sourceMappingURL line removed)
  licence: ISC (LICENSE.msgpack)
  sha256: $(sum "$out/msgpack.min.js")
README
cat > "$tests_out/README" <<README
axe-core for the web client's accessibility tests (tests/web/test_accessibility.py
injects it into the page under test; the server never serves it). Re-vendor: make
vendor-web (tools/vendor-web.sh); never edit by hand.

axe.min.js
  npm package: axe-core ${axe_version}, file axe.min.js
  licence: MPL-2.0 (LICENSE.axe-core; its bundled parts: LICENSE-3RD-PARTY.axe-core.txt)
  sha256: $(sum "$tests_out/axe.min.js")
README
echo "vendored htm ${htm_version} and @msgpack/msgpack ${msgpack_version} into $out, axe-core ${axe_version} into $tests_out"
