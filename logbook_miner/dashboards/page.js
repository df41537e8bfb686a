// The dashboard's behaviour: embed the charts, fill the ledger and the marker list, and keep the
// timeline, the marker buttons, the ledger and the note panel on one selected entry.
// Logbook text is untrusted: it only ever reaches the page through textContent.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('dashboard-data').textContent);
  var entries = new Map(data.entries.map(function (e) { return [e.id, e]; }));
  var views = {};
  var rows = new Map();
  var haystacks = new Map();  // id -> lower-case row text, author and note, for the filter
  var buttons = new Map();
  var selected = null;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function chip(code, kind) {
    var c = el('span', 'chip ' + kind, code);
    if (kind === 'fault') c.style.background = data.families[code.split('.')[0]] || data.families.none;
    return c;
  }

  function showEntry(id, origin) {
    var e = entries.get(id);
    if (!e) return false;
    selected = id;
    document.getElementById('entry-title').textContent = e.heading || '(no heading)';
    var meta = [e.logbook, e.when || 'undated', e.author].filter(Boolean).join(' · ');
    document.getElementById('entry-meta').textContent = meta;
    var list = document.getElementById('entry-labels');
    list.replaceChildren();
    if (!e.evidence.length) list.appendChild(el('li', null, 'No labels on this entry.'));
    e.evidence.forEach(function (ev) {
      var li = el('li');
      li.appendChild(chip(ev.code, ev.kind));
      li.appendChild(el('span', null, ' “' + ev.evidence + '” (' + ev.field + ')'));
      list.appendChild(li);
    });
    document.getElementById('entry-note').textContent =
      e.text + (e.truncated ? '\n\n[… note cut for the page; see the database]' : '');
    rows.forEach(function (tr, key) { tr.classList.toggle('selected', key === id); });
    buttons.forEach(function (b, key) { b.setAttribute('aria-pressed', String(key === id)); });
    var row = rows.get(id);
    if (row && origin !== 'ledger') row.scrollIntoView({block: 'nearest'});
    if (views.timeline) views.timeline.signal('selected_id', id).runAsync();
    return true;
  }

  function buildMarkers() {
    var box = document.getElementById('markers');
    if (!box) return;
    if (!data.markers.length) box.appendChild(el('p', 'cap', 'No failures or restarts recorded.'));
    data.markers.forEach(function (m) {
      var b = el('button');
      b.type = 'button';
      b.setAttribute('role', 'listitem');
      b.setAttribute('aria-pressed', 'false');
      b.dataset.id = m.id;
      b.setAttribute('aria-label', m.kind + ': ' + m.heading + ', ' + m.when + ', ' + m.logbook);
      var dot = el('span', 'dot');
      dot.style.background = data.families[m.family] || data.families.none;
      b.appendChild(dot);
      b.appendChild(document.createTextNode(m.when.slice(0, 10) + ' ' + m.kind));
      b.title = m.heading;
      b.addEventListener('click', function () { showEntry(m.id, 'marker'); });
      buttons.set(m.id, b);
      box.appendChild(b);
    });
  }

  function buildLedger() {
    var body = document.querySelector('#ledger tbody');
    if (!body) return;
    data.entries.forEach(function (e) {
      var tr = el('tr');
      tr.dataset.id = e.id;
      tr.dataset.event = String(e.failure || e.restart);
      tr.appendChild(el('td', null, e.when || 'undated'));
      tr.appendChild(el('td', null, e.logbook));
      var cell = el('td');
      var open = el('button', null, e.heading || '(no heading)');
      open.type = 'button';
      cell.appendChild(open);
      tr.appendChild(cell);
      [[e.faults, 'fault'], [e.interventions, 'intervention']].forEach(function (pair) {
        var td = el('td');
        pair[0].forEach(function (code) { td.appendChild(chip(code, pair[1])); });
        tr.appendChild(td);
      });
      tr.addEventListener('click', function () { showEntry(e.id, 'ledger'); });
      haystacks.set(e.id, (tr.textContent + ' ' + e.author + ' ' + e.text).toLowerCase());
      rows.set(e.id, tr);
      body.appendChild(tr);
    });
    var filter = document.getElementById('ledger-filter');
    var only = document.getElementById('ledger-events-only');
    function apply() {
      var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      rows.forEach(function (tr, id) {
        var text = haystacks.get(id);
        var ok = words.every(function (w) { return text.indexOf(w) >= 0; }) &&
                 (!only.checked || tr.dataset.event === 'true');
        tr.hidden = !ok;
        if (ok) shown += 1;
      });
      document.getElementById('ledger-count').textContent =
        shown + ' of ' + rows.size + ' entries shown';
    }
    filter.addEventListener('input', apply);
    only.addEventListener('change', apply);
    apply();
  }

  // The header, the charts of one logbook and the simulator show one logbook: its figures,
  // its families' rates, its rate on its own cluster.
  function chooseLogbook(id) {
    var select = document.getElementById('logbook-select');
    if (select) select.value = id;
    document.querySelectorAll('.kpis[data-logbook]').forEach(function (dl) {
      dl.hidden = dl.dataset.logbook !== id;
    });
    var runs = data.follow.filter(function (name) { return views[name]; }).map(function (name) {
      return views[name].signal('logbook', id).runAsync();
    });
    var inputs = data.simulator[id];
    if (views.cost && inputs) {
      ['gpus', 'failures_per_day', 'mttr_h', 'checkpoint_cost_s'].forEach(function (name) {
        views.cost.signal(name, inputs[name]);
      });
      runs.push(views.cost.runAsync());
    }
    return Promise.all(runs);
  }

  function embedAll() {
    var jobs = Array.prototype.map.call(document.querySelectorAll('[data-chart]'), function (box) {
      var name = box.dataset.chart;
      return vegaEmbed(box, data.specs[name], data.embed).then(function (result) {
        views[name] = result.view;
      }).catch(function (err) {
        box.replaceChildren(el('p', 'chart-error', 'This chart could not be drawn: ' + err));
        console.error(err);
      });
    });
    return Promise.all(jobs).then(function () {
      if (views.timeline) {
        views.timeline.addEventListener('click', function (event, item) {
          var id = item && item.datum && item.datum.id;
          if (id) showEntry(id, 'timeline');
        });
      }
      var select = document.getElementById('logbook-select');
      if (select) select.addEventListener('change', function () { chooseLogbook(select.value); });
      document.body.dataset.ready = 'true';
    });
  }

  buildMarkers();
  buildLedger();
  window.dashboard = {views: views, showEntry: showEntry,
                      chooseLogbook: chooseLogbook, selected: function () { return selected; },
                      ready: embedAll()};
})();
