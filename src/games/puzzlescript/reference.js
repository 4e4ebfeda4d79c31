// gridbot's harness for timing the reference PuzzleScript engine under
// node: loads the engine's scripts from its standalone page (the file named
// first; the game-source line at its end is dropped) into a context with
// just enough of a browser stubbed for the engine to load, then replays
// every session of the engine's regression suite (the file named second)
// as its test framework does: compile at the session's level and seed,
// each input as one turn, every `again` turn after it as a turn of its
// own. Prints one JSON line: sessions, matches (final level as recorded),
// failures, turns, the wall seconds of the whole replay and the CPU
// seconds spent compiling and playing turns.
// Used by `gridbot bench puzzlescript --conformance FILE --reference PAGE`.
// With `--solutions LIST` instead of the session file, it plays gridbot's
// solutions instead (LIST: a JSON array of [game file, index of the level
// in the source's levels, messages counted, keys over udlrx, seed]) and
// prints one JSON line: {"won": [true or false per solution]}.
// Used by `gridbot bench puzzlescript GAMES --reference PAGE`.
'use strict';
const fs = require('fs'), vm = require('vm');
const [page, data, list] = process.argv.slice(2);
const html = fs.readFileSync(page, 'utf8');
const scripts = [...html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map(m => m[1]);
scripts.pop();
function stub() {
  const f = function () { return stub(); };
  return new Proxy(f, {
    get(t, p) {
      if (p === Symbol.toPrimitive) return () => 0;
      if (p === Symbol.iterator) return undefined;
      if (p === 'then') return undefined;
      if (!(p in t)) t[p] = stub();
      return t[p];
    },
    apply() { return stub(); },
    construct() { return stub(); },
    set(t, p, v) { t[p] = v; return true; },
  });
}
const store = {};
const sandbox = {
  console, document: stub(), navigator: { userAgent: 'node', platform: 'node' },
  localStorage: { getItem: k => (k in store ? store[k] : null), setItem: (k, v) => { store[k] = String(v); }, removeItem: k => { delete store[k]; } },
  setTimeout: () => 0, clearTimeout() {}, setInterval: () => 0, clearInterval() {},
  requestAnimationFrame() {}, addEventListener() {}, removeEventListener() {},
  HTMLCanvasElement: function () {}, Element: function () {}, Event: function () {}, KeyboardEvent: function () {}, AudioContext: stub(), webkitAudioContext: undefined, Audio: stub(), Image: stub(),
  location: { href: 'file:///', search: '', hash: '' }, performance: { now: () => Number(process.hrtime.bigint()) / 1e6 },
  // CPU milliseconds of this process (user and system), for the timings.
  __cpu: () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; },
};
sandbox.window = sandbox;
sandbox.self = sandbox;
vm.createContext(sandbox);
const harness = `
var __results = [];
// The level as the engine's test suite writes it (its debug helper, not
// in the standalone page): per cell the sorted object names, each
// combination named once and then by its number.
function __levelText() {
  var out = '', seen = {}, n = 0;
  for (var y = 0; y < level.height; y++) {
    for (var x = 0; x < level.width; x++) {
      var mask = level.getCell(x + y * level.width), objs = [];
      for (var bit = 0; bit < 32 * STRIDE_OBJ; ++bit) if (mask.get(bit)) objs.push(state.idDict[bit]);
      objs.sort();
      var key = objs.join(' ');
      if (!Object.prototype.hasOwnProperty.call(seen, key)) { seen[key] = n++; out += key + ':'; }
      out += seen[key] + ',';
    }
    out += '\\n';
  }
  return out;
}
var __won = false;
var __doWin = DoWin;
DoWin = function () { __won = true; return __doWin(); };
function __plays(file, index, keys, seed) {
  unitTesting = true;
  if (typeof errorStrings !== 'undefined') errorStrings = [];
  compile(['loadLevel', index], __read(file), seed);
  __won = false;
  var dirs = { u: 0, l: 1, d: 2, r: 3, x: 4 };
  while (againing) { againing = false; processInput(-1); }
  for (var i = 0; i < keys.length && !__won; i++) {
    processInput(dirs[keys[i]]);
    while (againing) { againing = false; processInput(-1); }
  }
  unitTesting = false;
  return __won;
}
function __run(d) {
  unitTesting = true;
  var source = d[0], inputs = d[1], target = d[2], level = d[3] === undefined ? 0 : d[3];
  var seed = d[4] === undefined ? null : d[4];
  if (typeof errorStrings !== 'undefined') errorStrings = [];
  var turns = 0;
  var c0 = __cpu();
  compile(['loadLevel', level], source, seed);
  var c1 = __cpu();
  while (againing) { againing = false; processInput(-1); turns++; }
  for (var i = 0; i < inputs.length; i++) {
    var v = inputs[i];
    if (v === 'undo') DoUndo(false, true);
    else if (v === 'restart') DoRestart();
    else if (v === 'tick') { processInput(-1); turns++; }
    else { processInput(v); turns++; }
    while (againing) { againing = false; processInput(-1); turns++; }
  }
  var c2 = __cpu();
  unitTesting = false;
  return [__levelText() === target, turns, (c1 - c0) / 1e3, (c2 - c1) / 1e3];
}
`;
sandbox.__read = f => fs.readFileSync(f, 'utf8');
vm.runInContext(scripts.join('\n;\n') + harness, sandbox, { filename: 'engine.js' });
if (data === '--solutions') {
  const won = JSON.parse(fs.readFileSync(list, 'utf8')).map(([file, index, keys, seed]) => {
    try { return sandbox.__plays(file, index, keys, seed); } catch (e) { return false; }
  });
  console.log(JSON.stringify({ won }));
  process.exit(0);
}
const testdata = vm.runInNewContext(fs.readFileSync(data, 'utf8') + ';testdata');
let match = 0, turns = 0, failed = 0, compile = 0, play = 0;
const t0 = process.hrtime.bigint();
for (const [name, d] of testdata) {
  try {
    const [ok, n, c, p] = sandbox.__run(d);
    match += ok ? 1 : 0; turns += n; compile += c; play += p;
  } catch (e) { failed++; if (failed <= 3) console.error(name + ': ' + e); }
}
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(JSON.stringify({ sessions: testdata.length, matches: match, failed, turns, seconds: secs, compile_seconds: compile, turn_seconds: play }));
