// The operator console: plain DOM, no framework, no inline script (the page is served under a CSP).
// Text reaches the page through textContent only; the token lives in sessionStorage and in one header.
(() => {
  'use strict';
  const TOKEN_KEY = 'podwarden.operatorToken';
  const DAY_MS = 86_400_000;
  const HOUR_MS = 3_600_000;
  const MIN_BAND = 8;
  const POLL_MS = 5_000;
  const SAFETY_MS = 60_000;
  // The gateway writes the event types into the script tag from the source's list (console-assets.ts).
  const EVENT_TYPES = JSON.parse(document.currentScript?.dataset.eventTypes ?? '[]');
  const PHASE_LABEL = { down: 'Down', booting: 'Booting', ready: 'Ready' };
  const SVG = 'http://www.w3.org/2000/svg';
  const pods = new Map();

  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === 'text') node.textContent = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child);
    return node;
  }
  const svg = (tag, attrs) => {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    return node;
  };
  const token = () => sessionStorage.getItem(TOKEN_KEY);
  const path = (name, rest = '') => `/api/pods/${encodeURIComponent(name)}${rest}`;

  async function api(method, url, body, withToken = method !== 'GET') {
    const headers = { Accept: 'application/json' };
    if (withToken && token()) headers['X-Rig-Operator-Token'] = token();
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const init = { method, headers, cache: 'no-store' };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(url, init);
    let json = null;
    try {
      json = await response.json();
    } catch {
      // not JSON: described by its status
    }
    return { status: response.status, body: json };
  }

  function when(iso) {
    if (!iso) return '—';
    const at = new Date(iso);
    const minutes = Math.round((Date.now() - at.getTime()) / 60_000);
    const relative = minutes >= 0 ? `${minutes} min ago` : `in ${-minutes} min`;
    return `${at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })} (${relative})`;
  }

  function phaseOf(status) {
    if (status.readySince) return 'ready';
    if (status.wake || status.isRunning) return 'booting';
    return 'down';
  }

  function spendText(spend) {
    if (spend === undefined || spend === null) return null;
    if (typeof spend === 'number') return `$${spend.toFixed(2)} (estimate)`;
    if (typeof spend.spentUsd === 'number') {
      const estimate = `$${(spend.spentUsd + (spend.accruingUsd ?? 0)).toFixed(2)} (estimate)`;
      const billed =
        typeof spend.providerUsd === 'number'
          ? ` · RunPod billed $${spend.providerUsd.toFixed(2)} as of ${when(spend.providerAsOf)}`
          : '';
      const storage =
        typeof spend.storageUsdPerDay === 'number'
          ? ` · storage $${spend.storageUsdPerDay.toFixed(2)}/day`
          : '';
      return `${estimate}${billed}${storage}`;
    }
    const usd = Object.entries(spend).find(([, value]) => typeof value === 'number');
    return usd ? `$${usd[1].toFixed(2)} (estimate)` : null;
  }

  // The diagnosis holds the pod's own log lines: it is read with the operator token only.
  function diagnosisText(pod) {
    if (!token()) return 'enter the operator token to read it';
    const d = pod.diagnosis;
    if (d === undefined) return '…';
    if (d === null) return 'none';
    return `${d.kind} ${when(d.at)}: ${d.summary}`;
  }

  // ---- one card per pod ----
  function card(name) {
    const field = (label) => {
      const dd = el('dd', { text: '—' });
      return [el('dt', { text: label }), dd];
    };
    const rows = {
      status: field('Status'),
      ready: field('Ready since'),
      wake: field('Wake'),
      lastWake: field('Last wake'),
      keepAlive: field('Keep-alive'),
      idleStop: field('Idle stop at'),
      idleWindow: field('Idle window'),
      prewake: field('Next pre-wake'),
      spend: field('Spend today'),
      placement: field('Pod'),
      diagnosis: field('Boot diagnosis'),
    };
    const dl = el('dl');
    for (const [dt, dd] of Object.values(rows)) dl.append(dt, dd);
    const badge = el('span', { class: 'phase', text: '…' });
    const live = el('span', { class: 'live', text: 'connecting' });
    const message = el('p', { class: 'message', role: 'status' });
    const minutes = el('input', {
      type: 'number',
      min: '1',
      max: '1440',
      value: '30',
      'aria-label': `keep-alive minutes for ${name}`,
    });
    const button = (text, action) => {
      const b = el('button', { type: 'button', text });
      b.addEventListener('click', () => act(name, b, action));
      return b;
    };
    const actions = el(
      'div',
      { class: 'actions' },
      button('Start', () => api('POST', path(name, '/start'))),
      button('Stop', () => api('POST', path(name, '/stop'))),
      minutes,
      button('Keep alive', () => api('POST', path(name, '/keepalive'), { minutes: Number(minutes.value) })),
      button('Clear keep-alive', () => api('DELETE', path(name, '/keepalive'))),
    );
    const evidence = el('ul', { class: 'evidence', 'aria-label': `boot diagnosis evidence for ${name}` });
    const timeline = el('div', { class: 'timeline' });
    const root = el(
      'section',
      { class: 'card', 'aria-label': `pod ${name}`, 'data-pod': name },
      el('h2', {}, el('span', { text: name }), badge, live),
      dl,
      evidence,
      actions,
      message,
      timeline,
    );
    return { root, rows, badge, live, message, timeline, evidence };
  }

  function render(pod) {
    const s = pod.status;
    if (!s) return;
    const { rows, badge } = pod.view;
    const phase = phaseOf(s);
    badge.textContent = PHASE_LABEL[phase];
    badge.className = `phase ${phase}`;
    const set = (row, text) => (rows[row][1].textContent = text ?? '—');
    set('status', `${s.status}${s.configured ? '' : ' (unconfigured)'} · lookup ${s.lookup}`);
    set('ready', s.readySince ? when(s.readySince) : 'not ready');
    set('wake', s.wake ? `${s.wake.phase}: ${s.wake.message}` : 'none in flight');
    const lw = s.lastWake;
    set('lastWake', lw ? `${lw.outcome} (${lw.wakeOutcome}) ${when(lw.completedAt)}: ${lw.reason}` : null);
    set('keepAlive', s.keepAliveUntil ? `until ${when(s.keepAliveUntil)}` : 'off');
    set('idleStop', s.idleStopAt ? when(s.idleStopAt) : null);
    const w = s.idleWindow;
    set('idleWindow', w ? `${w.minutes} min (${w.policy}): ${w.basis}` : null);
    set('prewake', s.nextPrewakeAt ? when(s.nextPrewakeAt) : 'none planned');
    set('spend', spendText(s.spendToday) ?? 'not tracked');
    const price = typeof s.pricePerHour === 'number' ? ` · $${s.pricePerHour}/h` : '';
    set(
      'placement',
      s.podId ? `${s.podId}${s.gpuId ? ` · ${s.gpuId}` : ''}${price} · ${s.podsOnVolume} on volume` : 'none',
    );
    set('diagnosis', diagnosisText(pod));
    pod.view.evidence.replaceChildren(
      ...(token() && pod.diagnosis ? pod.diagnosis.evidence : []).map((line) => el('li', { text: line })),
    );
    drawTimeline(pod);
  }

  async function act(name, button, action) {
    const pod = pods.get(name);
    const say = (text, error) => {
      pod.view.message.textContent = text;
      pod.view.message.className = error ? 'message error' : 'message';
    };
    if (!token()) return say('Enter the operator token first (top of the page).', true);
    button.disabled = true;
    say(`${button.textContent}…`, false);
    try {
      const answer = await action();
      const body = answer.body ?? {};
      if (answer.status === 401) say('The operator token was refused (401): nothing was changed.', true);
      else if (answer.status >= 400) say(`${answer.status} ${body.title ?? ''}: ${body.detail ?? ''}`, true);
      else if (body.outcome) say(`${body.outcome}: ${body.message ?? ''}`, false);
      else if ('keepAliveUntil' in body)
        say(
          body.keepAliveUntil ? `Kept alive until ${when(body.keepAliveUntil)}` : 'Keep-alive cleared',
          false,
        );
      else say(body.ok === false ? 'Stop not accepted for every pod' : 'Stopped', body.ok === false);
    } catch (error) {
      say(`The gateway did not answer: ${error.message}`, true);
    } finally {
      button.disabled = false;
      refresh(name, true);
    }
  }

  // ---- timeline of the last 24 hours ----
  function bandsOf(pod, now) {
    const from = now - DAY_MS;
    const edges = pod.edges.filter((e) => e.at >= from).sort((a, b) => a.at - b.at);
    const bands = [];
    let phase = edges.length > 0 ? edges[0].from : phaseOf(pod.status);
    let start = from;
    for (const edge of edges) {
      bands.push({ phase, start, end: edge.at });
      phase = edge.phase;
      start = edge.at;
    }
    bands.push({ phase: pod.status ? phaseOf(pod.status) : phase, start, end: now });
    return bands.filter((b) => b.end > b.start);
  }

  // One strip: the day's bands and action markers over `spanMs` up to now.
  function strip(pod, now, spanMs, label) {
    const from = now - spanMs;
    const x = (t) => ((Math.max(t, from) - from) / spanMs) * 1000;
    const chart = svg('svg', { viewBox: '0 0 1000 40', preserveAspectRatio: 'none', role: 'img' });
    chart.setAttribute('aria-label', `${pod.name}: down, booting and ready over the last ${label}`);
    for (const band of layout(
      bandsOf(pod, now).filter((b) => b.end > from),
      x,
    )) {
      const rect = svg('rect', { class: `band ${band.phase}`, x: band.left.toFixed(1), y: 8, height: 24 });
      rect.setAttribute('width', (band.right - band.left).toFixed(1));
      rect.append(svg('title', {}));
      rect.firstChild.textContent = `${PHASE_LABEL[band.phase]} from ${new Date(band.start).toLocaleTimeString()}`;
      chart.append(rect);
    }
    for (const a of pod.actions.filter((a) => Date.parse(a.at) >= from)) {
      const at = x(Date.parse(a.at)).toFixed(1);
      const line = svg('line', { class: a.ok ? 'marker' : 'marker failed', x1: at, x2: at, y1: 2, y2: 38 });
      line.append(svg('title', {}));
      line.firstChild.textContent = actionLabel(a);
      chart.append(line);
    }
    const axis = el(
      'div',
      { class: 'axis' },
      el('span', { text: `${label} ago` }),
      el('span', { text: 'now' }),
    );
    return [chart, axis];
  }

  // A boot of a few minutes is a sliver of a day: booting and ready bands are never narrower than
  // MIN_BAND, pushed left (newest first) so the newest stays at "now" and none hides another.
  function layout(bands, x) {
    const placed = [];
    let limit = 1000;
    for (const band of [...bands].reverse()) {
      const right = Math.min(x(band.end), limit);
      const left =
        band.phase === 'down' ? Math.min(x(band.start), right) : Math.min(x(band.start), right - MIN_BAND);
      placed.unshift({ ...band, left: Math.max(0, left), right });
      limit = Math.max(0, left);
    }
    return placed.filter((b) => b.right > b.left);
  }

  function actionLabel(a) {
    const refused = a.ok ? '' : ` refused HTTP ${a.httpStatus}`;
    return `${new Date(a.at).toLocaleTimeString()} ${a.action} ${a.podId ?? ''} (${a.trigger})${refused}`;
  }

  // One run (wake to stop): uptime, time to ready, usable time, what stopped it, the cost estimate.
  function runLabel(r) {
    const span = (sec) =>
      sec === null ? '?' : sec < 120 ? `${Math.round(sec)} s` : `${Math.round(sec / 60)} min`;
    const start = r.startedAt === null ? 'start not recorded' : new Date(r.startedAt).toLocaleTimeString();
    const ready = r.readyAt === null ? 'never ready' : `ready after ${span(r.timeToReadySeconds)}`;
    const end = r.stoppedAt === null ? 'running' : `stopped (${r.stopTrigger})`;
    const usd = r.estimatedCostUsd;
    const cost = usd === null ? '' : `, ≈ ${usd.toFixed(usd < 0.01 ? 4 : 2)} USD`;
    return `${start} ${r.podId}: up ${span(r.uptimeSeconds)}, ${ready}, usable ${span(r.usableSeconds)}, ${end}${cost}`;
  }

  function drawTimeline(pod) {
    const now = Date.now();
    const items = el('ul');
    for (const a of pod.actions.filter((a) => Date.parse(a.at) >= now - DAY_MS)) {
      items.append(el('li', { text: actionLabel(a) }));
    }
    const legend = el(
      'p',
      { class: 'legend' },
      el('span', { class: 'l-down', text: 'down' }),
      el('span', { class: 'l-booting', text: 'booting' }),
      el('span', { class: 'l-ready', text: 'ready' }),
      el('span', { class: 'l-action', text: 'billable action / stop' }),
    );
    const details = el(
      'details',
      { class: 'actions' },
      el('summary', { text: `Billable actions, last 24 h (${items.children.length})` }),
      items,
    );
    const runs = el('ul');
    for (const r of pod.runs.filter((r) => Date.parse(r.startedAt ?? r.stoppedAt) >= now - DAY_MS)) {
      runs.append(el('li', { text: runLabel(r) }));
    }
    const runDetails = el(
      'details',
      { class: 'runs' },
      el('summary', { text: `Runs, last 24 h (${runs.children.length}; cost is an estimate)` }),
      runs,
    );
    pod.view.timeline.replaceChildren(
      ...strip(pod, now, DAY_MS, '24 h'),
      ...strip(pod, now, HOUR_MS, '1 h'),
      legend,
      details,
      runDetails,
    );
  }

  // ---- reading: events first, polling as the fallback ----
  async function refresh(name, withHistory) {
    const pod = pods.get(name);
    const answer = await api('GET', path(name)).catch(() => null);
    if (answer && answer.status === 200) pod.status = answer.body;
    if (token()) {
      const diagnosis = await api('GET', path(name, '/diagnosis'), undefined, true).catch(() => null);
      if (diagnosis && diagnosis.status === 200) pod.diagnosis = diagnosis.body;
    }
    if (withHistory) {
      const history = await api('GET', path(name, '/history?limit=200')).catch(() => null);
      if (history && history.status === 200) {
        pod.actions = history.body.actions;
        pod.runs = history.body.runs ?? [];
      }
    }
    render(pod);
  }

  function soon(pod, withHistory) {
    pod.historyDue ||= withHistory;
    clearTimeout(pod.timer);
    pod.timer = setTimeout(() => {
      const history = pod.historyDue;
      pod.historyDue = false;
      refresh(pod.name, history);
    }, 150);
  }

  function setPolling(pod, on) {
    clearInterval(pod.poll);
    pod.poll = setInterval(() => refresh(pod.name, on), on ? POLL_MS : SAFETY_MS);
  }

  function follow(pod) {
    // A day back: the retained phase changes draw the timeline's bands. Reconnects send Last-Event-ID.
    const url = path(pod.name, `/events?lastEventId=${now24hId()}`);
    const source = new EventSource(url);
    source.onopen = () => {
      pod.view.live.textContent = 'live';
      setPolling(pod, false);
      soon(pod, true);
    };
    source.onerror = () => {
      const closed = source.readyState === EventSource.CLOSED;
      pod.view.live.textContent = closed ? 'polling' : 'reconnecting';
      if (closed) setPolling(pod, true);
    };
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (event) => {
        let data;
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        if (type === 'phase') pod.edges.push({ at: Date.parse(data.at), phase: data.phase, from: data.from });
        if (type === 'budget-refused')
          pod.view.message.textContent = `Budget refused a start: ${data.detail ?? ''}`;
        if (type === 'billing-mismatch')
          pod.view.message.textContent = `Billing mismatch: ${data.detail ?? ''}`;
        if (type === 'prewake') pod.view.message.textContent = `Pre-wake: ${data.outcome}`;
        soon(pod, type !== 'wake-progress' && type !== 'idle-streak');
      });
    }
  }

  const now24hId = () => `${Date.now() - DAY_MS}-0`;

  // ---- token ----
  function showToken() {
    document.getElementById('token-state').textContent = token() ? 'token set for this tab' : 'no token';
  }
  document.getElementById('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = document.getElementById('token');
    if (input.value.trim() !== '') sessionStorage.setItem(TOKEN_KEY, input.value.trim());
    input.value = '';
    showToken();
  });
  document.getElementById('forget-token').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    showToken();
  });

  async function start() {
    showToken();
    const list = await api('GET', '/api/pods').catch((error) => ({
      status: 0,
      body: { detail: error.message },
    }));
    if (list.status !== 200) {
      document.getElementById('page-error').textContent = `Could not list the pods (${list.status})`;
      return;
    }
    const main = document.getElementById('pods');
    for (const status of list.body.pods) {
      const pod = { name: status.name, status, actions: [], runs: [], edges: [], view: card(status.name) };
      pods.set(pod.name, pod);
      main.append(pod.view.root);
      render(pod);
      setPolling(pod, true);
      follow(pod);
    }
  }
  start();
})();
