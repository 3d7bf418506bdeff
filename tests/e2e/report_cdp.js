// SPDX-License-Identifier: GPL-2.0-or-later
//
// report_cdp.js - drive headless Chromium over the DevTools protocol
// (--remote-debugging-pipe: requests on fd 3, replies on fd 4, each a JSON
// text ended by NUL) to check a `histmac report` page, with nothing but
// Node's standard library.
//
// usage: node report_cdp.js CONFIG.json
//   CONFIG: { chromium, profile, url, shot, click_shot,
//             domains,          number of domains in the policy
//             drawn,            domain nodes the SVG must hold
//             click_id,         id of the node to click ("dom-6")
//             click_name,       the domain name the click must show
//             click_acl,        ACL lines that domain has
//             click_violations, violations expected for it (or -1)
//             search, search_hits }
//
// Fails (exit 1, reasons on stderr) on: a console error or warning, an
// uncaught exception, a request for anything but the page itself, a
// missing tree, a click that does not show the domain, a search that does
// not filter.  Writes two screenshots: after load, and after the click.

'use strict';

const { spawn } = require('child_process');
const fs = require('fs');

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const problems = [];
const TIMEOUT_MS = 90000;

const chrome = spawn(cfg.chromium, [
	'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
	'--no-first-run', '--disable-background-networking',
	'--disable-component-update', '--disable-sync',
	'--disable-dev-shm-usage', '--hide-scrollbars',
	'--user-data-dir=' + cfg.profile, '--remote-debugging-pipe',
	'--window-size=1400,900', 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true });
let exited = false;
chrome.on('exit', () => { exited = true; });

let chromeLog = '';
chrome.stdio[2].on('data', (d) => { chromeLog += d.toString(); });

const toChrome = chrome.stdio[3];
const fromChrome = chrome.stdio[4];
let nextId = 0;
const pending = new Map();
const waiters = [];
let inbuf = Buffer.alloc(0);

function onMessage(msg) {
	if (msg.id !== undefined && pending.has(msg.id)) {
		const p = pending.get(msg.id);
		pending.delete(msg.id);
		if (msg.error)
			p.reject(new Error(p.method + ': ' + msg.error.message));
		else
			p.resolve(msg.result);
		return;
	}
	if (!msg.method)
		return;
	watch(msg);
	for (let i = waiters.length - 1; i >= 0; i--) {
		if (waiters[i].method === msg.method) {
			waiters[i].resolve(msg.params);
			waiters.splice(i, 1);
		}
	}
}

fromChrome.on('data', (chunk) => {
	inbuf = Buffer.concat([inbuf, chunk]);
	let nul;
	while ((nul = inbuf.indexOf(0)) >= 0) {
		const text = inbuf.subarray(0, nul).toString('utf8');
		inbuf = inbuf.subarray(nul + 1);
		onMessage(JSON.parse(text));
	}
});

function send(method, params, sessionId) {
	return new Promise((resolve, reject) => {
		const msg = { id: ++nextId, method, params: params || {} };
		if (sessionId)
			msg.sessionId = sessionId;
		pending.set(msg.id, { resolve, reject, method });
		toChrome.write(JSON.stringify(msg) + '\0');
	});
}

function waitFor(method) {
	return new Promise((resolve) => waiters.push({ method, resolve }));
}

// Everything the page does that a self-contained page must not.
function watch(msg) {
	const p = msg.params || {};
	switch (msg.method) {
	case 'Runtime.exceptionThrown':
		problems.push('exception: ' +
			(p.exceptionDetails.exception ?
			 p.exceptionDetails.exception.description :
			 p.exceptionDetails.text));
		break;
	case 'Runtime.consoleAPICalled':
		if (['error', 'warning', 'assert'].includes(p.type))
			problems.push('console.' + p.type + ': ' +
				p.args.map((a) => a.value || a.description)
					.join(' '));
		break;
	case 'Log.entryAdded':
		if (['error', 'warning'].includes(p.entry.level))
			problems.push('log ' + p.entry.level + ': ' +
				p.entry.text + ' ' + (p.entry.url || ''));
		break;
	case 'Network.requestWillBeSent':
		if (p.request.url !== cfg.url && !p.request.url.startsWith('data:'))
			problems.push('fetch: ' + p.request.url);
		break;
	default:
		break;
	}
}

function sleep(ms) {
	return new Promise((r) => setTimeout(r, ms));
}

async function main() {
	const { targetId } = await send('Target.createTarget',
					{ url: 'about:blank' });
	const { sessionId } = await send('Target.attachToTarget',
					 { targetId, flatten: true });
	const S = (m, p) => send(m, p, sessionId);
	const evaluate = async (expr) => {
		const r = await S('Runtime.evaluate',
				  { expression: expr, returnByValue: true });
		if (r.exceptionDetails)
			throw new Error('evaluate ' + expr + ': ' +
					r.exceptionDetails.text);
		return r.result.value;
	};

	await S('Runtime.enable');
	await S('Log.enable');
	await S('Network.enable');
	await S('Page.enable');
	await S('Emulation.setDeviceMetricsOverride', {
		width: 1400, height: 900, deviceScaleFactor: 1, mobile: false,
	});
	const loaded = waitFor('Page.loadEventFired');
	await S('Page.navigate', { url: cfg.url });
	await loaded;
	for (let i = 0; i < 100; i++) {
		if (await evaluate('document.body.dataset.ready === "1"'))
			break;
		await sleep(100);
	}
	if (!await evaluate('document.body.dataset.ready === "1"'))
		problems.push('the page script never finished');

	// the tree is there, one node per domain drawn
	const drawn = await evaluate(
		'document.querySelectorAll("#tree svg g.node[id^=\'dom-\']").length');
	if (drawn !== cfg.drawn)
		problems.push(`tree has ${drawn} domain nodes, want ${cfg.drawn}`);
	const box = await evaluate('(() => { const r = document.querySelector(' +
		'"#tree svg").getBoundingClientRect(); return [r.width, r.height]; })()');
	if (!(box[0] > 100 && box[1] > 50))
		problems.push('tree is not visible: ' + box);
	const listed = await evaluate('document.querySelectorAll("#list li").length');
	if (listed !== Math.min(cfg.domains, 500))
		problems.push(`list has ${listed} domains, want ${cfg.domains}`);

	let shot = await S('Page.captureScreenshot', { format: 'png' });
	fs.writeFileSync(cfg.shot, Buffer.from(shot.data, 'base64'));

	// click the node, as a person would: a real mouse event at its centre
	const at = await evaluate(`(() => {
		const g = document.getElementById(${JSON.stringify(cfg.click_id)});
		if (!g) return null;
		g.scrollIntoView({ block: 'center', inline: 'center' });
		const r = g.querySelector('polygon, path, ellipse').getBoundingClientRect();
		return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
	})()`);
	if (!at) {
		problems.push('no node ' + cfg.click_id + ' to click');
	} else {
		for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'])
			await S('Input.dispatchMouseEvent', {
				type, x: at.x, y: at.y, button: 'left',
				clickCount: type === 'mouseMoved' ? 0 : 1,
			});
		await sleep(200);
		const shown = await evaluate(
			'document.getElementById("detail-name").textContent');
		if (shown !== cfg.click_name)
			problems.push(`click on ${cfg.click_id} shows "${shown}", ` +
				`want "${cfg.click_name}"`);
		const acl = await evaluate(
			'document.querySelectorAll("#detail-acl div:not(.muted)").length');
		if (acl !== cfg.click_acl)
			problems.push(`clicked domain shows ${acl} ACL lines, ` +
				`want ${cfg.click_acl}`);
		const sel = await evaluate(`document.getElementById(
			${JSON.stringify(cfg.click_id)}).classList.contains("selected")`);
		if (!sel)
			problems.push('clicked node is not marked selected');
		if (cfg.click_violations >= 0) {
			const v = await evaluate('document.getElementById(' +
				'"detail-viol-head").textContent');
			if (v !== `Violations (${cfg.click_violations})`)
				problems.push(`violations heading "${v}"`);
		}
		shot = await S('Page.captureScreenshot', { format: 'png' });
		fs.writeFileSync(cfg.click_shot, Buffer.from(shot.data, 'base64'));
	}

	// the search filters the list
	if (cfg.search) {
		await evaluate(`(() => { const s = document.getElementById("search");
			s.value = ${JSON.stringify(cfg.search)};
			s.dispatchEvent(new Event("input")); })()`);
		const hits = await evaluate('document.querySelectorAll("#list li").length');
		if (hits !== cfg.search_hits)
			problems.push(`search "${cfg.search}" lists ${hits}, ` +
				`want ${cfg.search_hits}`);
	}
	await sleep(100);
	send('Browser.close').catch(() => {});
	for (let i = 0; i < 50 && !exited; i++)
		await sleep(100);
}

const timer = setTimeout(() => {
	problems.push('timed out');
	finish();
}, TIMEOUT_MS);

function finish() {
	clearTimeout(timer);
	try {
		// the browser and the helpers it started: one process group
		process.kill(-chrome.pid, 'SIGKILL');
	} catch (e) {
		/* already gone */
	}
	if (problems.length) {
		for (const p of problems)
			console.error('FAIL: ' + p);
		if (chromeLog)
			console.error('chromium said:\n' + chromeLog.slice(-3000));
		process.exit(1);
	}
	console.log('report page: ok');
	process.exit(0);
}

chrome.on('error', (e) => {
	problems.push('cannot start ' + cfg.chromium + ': ' + e.message);
	finish();
});

main().then(finish, (e) => {
	problems.push(e.stack || String(e));
	finish();
});
