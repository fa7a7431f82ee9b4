#!/bin/sh
# The comparison pages in a real browser.  largedir plot and largedir page
# make graphs and pages for a fixture run whose description holds <, &
# and quotes; a server on 127.0.0.1 serves them, and headless Chromium
# loads both pages: every image has loaded (naturalWidth > 0), every link
# answers 200, the description shows verbatim, and the console has no
# errors.  Both pages, and the published reference run's, fit a window
# 1,280 and 390 px wide: nothing reaches past its right edge but inside a
# scroll box (div.wide), as a page made wide on purpose shows it would.
# A screenshot of each page is kept in build/test-artefacts/.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd python3 gnuplot
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || skip "needs chromium (apt-get install chromium)"

server=
page_cleanup() {
	[ -z "$server" ] || kill "$server" 2>/dev/null || true
	[ -z "$server" ] || wait "$server" 2>/dev/null || true
	lib_cleanup
}
trap page_cleanup EXIT

res=$T/www
cp -R "$TOP/tests/data/page/run" "$res"
rm -f "$res"/rates-*.png "$res"/rates-*.svg
LARGEDIR_PLOT=$TOP/plot "$LD" plot "$res" >/dev/null ||
    fail "largedir plot failed"
"$LD" page "$res" >/dev/null || fail "largedir page failed"
for f in index.html index.de.html rates-create.png tmpfs.png; do
	[ -s "$res/$f" ] || fail "no $f"
done

# The published reference run's pages, and one too wide on purpose.
ref=
for d in "$TOP"/results/*-reference; do
	ref=$d		# the glob sorts: the newest last
done
[ -d "$ref" ] || fail "no published reference run in $TOP/results"
mkdir "$res/ref"
cp "$ref/index.html" "$ref/index.de.html" "$res/ref/"
printf '<!DOCTYPE html><html><body><p>x</p><div style="width:2000px">w</div></body></html>\n' \
    >"$res/wide.html"

# The checker: loads a page in a frame, then looks at what the browser
# made of it, and writes its verdict into the document for --dump-dom.
cat >"$res/check.html" <<'HTML'
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>check</title></head>
<body><pre id="out">running</pre>
<iframe id="f" width="1200" height="900"></iframe>
<script>
const want = '<b>&"quotes"\'';
async function check(page) {
	const bad = [];
	const f = document.getElementById('f');
	await new Promise(ok => { f.onload = ok; f.src = page; });
	const d = f.contentDocument;
	for (const img of d.images)
		if (!img.complete || img.naturalWidth === 0)
			bad.push(page + ': image not loaded: ' + img.src);
	if (d.images.length === 0)
		bad.push(page + ': no images');
	for (const a of d.querySelectorAll('a[href]')) {
		const r = await fetch(a.href, { method: 'HEAD' });
		if (r.status !== 200)
			bad.push(page + ': ' + a.href + ': ' + r.status);
	}
	if (!d.body.textContent.includes(want))
		bad.push(page + ': the description is not shown verbatim');
	return bad;
}
// What reaches past the right edge of a frame 'w' px wide, but inside a
// scroll box.
async function layout(page, w) {
	const bad = [];
	const f = document.getElementById('f');
	f.width = w;
	await new Promise(ok => { f.onload = ok; f.src = page; });
	const d = f.contentDocument, cw = d.documentElement.clientWidth;
	if (d.documentElement.scrollWidth > cw)
		bad.push(page + ' at ' + w + ' px: ' +
		    d.documentElement.scrollWidth + ' px wide');
	for (const e of d.body.querySelectorAll('*')) {
		if (e.closest('div.wide') !== null && !e.matches('div.wide'))
			continue;
		const r = e.getBoundingClientRect();
		if (r.right > cw + 1) {
			bad.push(page + ' at ' + w + ' px: <' +
			    e.tagName.toLowerCase() + '> reaches ' +
			    Math.round(r.right) + ' px');
			break;
		}
	}
	return bad;
}
(async () => {
	let bad = [];
	for (const p of ['index.html', 'index.de.html'])
		bad = bad.concat(await check(p));
	for (const w of [1280, 390]) {
		for (const p of ['index.html', 'index.de.html',
		    'ref/index.html', 'ref/index.de.html'])
			bad = bad.concat(await layout(p, w));
		if ((await layout('wide.html', w)).length === 0)
			bad.push('wide.html at ' + w + ' px: not found too wide');
	}
	document.getElementById('out').textContent =
	    bad.length === 0 ? 'PAGES OK' : 'PAGES BAD\n' + bad.join('\n');
})();
</script></body></html>
HTML

# A server of our own on 127.0.0.1, on a port nobody uses.
port=$((20000 + $$ % 20000))
(cd "$res" && exec python3 -m http.server --bind 127.0.0.1 "$port") \
    >"$T/server.log" 2>&1 &
server=$!
up() {
	python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/index.html', timeout=1)" \
	    2>/dev/null
}
wait_for 20 up

# browse NAME ARG...: headless Chromium with a fresh profile of its own.
browse() {
	b_name=$1
	shift
	"$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
	    --no-first-run --disable-background-networking \
	    --disable-component-update --disable-sync \
	    --user-data-dir="$T/profile-$b_name" --enable-logging=stderr \
	    --v=0 "$@"
}
set +e
browse dom --virtual-time-budget=20000 --dump-dom \
    "http://127.0.0.1:$port/check.html" >"$T/dom" 2>"$T/console"
set -e
grep -q "PAGES OK" "$T/dom" ||
    fail "$(sed -n '/PAGES/,/<\/pre>/p' "$T/dom") $(tail -n 5 "$T/console")"
if grep "CONSOLE" "$T/console" | grep -v "check.html" | grep -q .; then
	fail "console messages: $(grep CONSOLE "$T/console")"
fi

art=$TOP/build/test-artefacts
mkdir -p "$art"
for p in index index.de; do
	set +e
	browse "shot-$p" --window-size=1200,2400 \
	    --screenshot="$art/page-$p.png" \
	    "http://127.0.0.1:$port/$p.html" >/dev/null 2>&1
	set -e
	[ -s "$art/page-$p.png" ] || fail "no screenshot of $p.html"
done
echo "screenshots: $art/page-index.png, $art/page-index.de.png"
