// A seat's own signing key (spec/SPEC.md §6a): an Ed25519 key made here with WebCrypto, its
// private half never extractable, kept in this browser's IndexedDB for this seat of this game.
// Its public key is registered with the game (a public SeatKeyRegistered event, once); from then
// on every decision this seat sends carries its signature over
// canon(["privateer-decision-v1", game id (16 bytes), seat, seat version, decision]), canon being
// MessagePack with map keys sorted by their UTF-8 bytes (§1). Nobody else, the service's
// operator included, can then decide in this seat's name.
(function () {
  "use strict";
  const DB = "privateer-seat-keys";
  const STORE = "keys";
  const enc = new TextEncoder();

  // §1 canon ---------------------------------------------------------------------------------
  function canon(value) {
    const out = [];
    const byte = (...b) => { for (const x of b) { out.push(x & 0xff); } };
    const be = (n, bytes) => { for (let i = bytes - 1; i >= 0; i--) { out.push(Number((BigInt(n) >> BigInt(8 * i)) & 0xffn)); } };
    const bytesOf = (b) => { for (const x of b) { out.push(x); } };
    function put(v) {
      if (v === null || v === undefined) { byte(0xc0); return; }
      if (v === false) { byte(0xc2); return; }
      if (v === true) { byte(0xc3); return; }
      if (typeof v === "number") {
        if (!Number.isInteger(v)) { throw new Error("a decision holds no fractions"); }
        if (v >= 0) {
          if (v <= 0x7f) { byte(v); } else if (v <= 0xff) { byte(0xcc, v); } else if (v <= 0xffff) { byte(0xcd); be(v, 2); }
          else if (v <= 0xffffffff) { byte(0xce); be(v, 4); } else { byte(0xcf); be(v, 8); }
        } else if (v >= -32) { byte(v); } else if (v >= -128) { byte(0xd0, v); }
        else if (v >= -32768) { byte(0xd1); be(v & 0xffff, 2); }
        else if (v >= -2147483648) { byte(0xd2); be(v >>> 0, 4); }
        else { byte(0xd3); be(BigInt.asUintN(64, BigInt(v)), 8); }
        return;
      }
      if (typeof v === "string") {
        const b = enc.encode(v);
        const n = b.length;
        if (n <= 31) { byte(0xa0 | n); } else if (n <= 0xff) { byte(0xd9, n); } else if (n <= 0xffff) { byte(0xda); be(n, 2); }
        else { byte(0xdb); be(n, 4); }
        bytesOf(b);
        return;
      }
      if (v instanceof Uint8Array) {
        const n = v.length;
        if (n <= 0xff) { byte(0xc4, n); } else if (n <= 0xffff) { byte(0xc5); be(n, 2); } else { byte(0xc6); be(n, 4); }
        bytesOf(v);
        return;
      }
      if (Array.isArray(v)) {
        const n = v.length;
        if (n <= 15) { byte(0x90 | n); } else if (n <= 0xffff) { byte(0xdc); be(n, 2); } else { byte(0xdd); be(n, 4); }
        for (const x of v) { put(x); }
        return;
      }
      if (typeof v === "object") {
        const keys = Object.keys(v).map((k) => [enc.encode(k), k]);
        keys.sort((a, b) => {
          const x = a[0], y = b[0];
          for (let i = 0; i < Math.min(x.length, y.length); i++) { if (x[i] !== y[i]) { return x[i] - y[i]; } }
          return x.length - y.length;
        });
        const n = keys.length;
        if (n <= 15) { byte(0x80 | n); } else if (n <= 0xffff) { byte(0xde); be(n, 2); } else { byte(0xdf); be(n, 4); }
        for (const [, k] of keys) { put(k); put(v[k]); }
        return;
      }
      throw new Error("a decision holds only maps, lists, text, integers, true, false and null");
    }
    put(value);
    return new Uint8Array(out);
  }

  const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
  const unhex = (text) => new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));

  // IndexedDB: {id: "GAME:SEAT", keys: CryptoKeyPair, registered: bool} -----------------------
  // one connection for the page's life (opening one took nearly all of a decision's signing:
  // python -m bench.browser_signing); opened again if it fails or the browser closes it
  let opened = null;
  function db() {
    if (!opened) {
      opened = new Promise((resolve, reject) => {
        const r = indexedDB.open(DB, 1);
        r.onupgradeneeded = () => r.result.createObjectStore(STORE, {keyPath: "id"});
        r.onsuccess = () => {
          r.result.onclose = () => { opened = null; };
          r.result.onversionchange = () => { r.result.close(); opened = null; };
          resolve(r.result);
        };
        r.onerror = () => { opened = null; reject(r.error); };
      });
    }
    return opened;
  }

  async function tx(mode, work) {
    const d = await db();
    return new Promise((resolve, reject) => {
      const t = d.transaction(STORE, mode);
      const req = work(t.objectStore(STORE));
      t.oncomplete = () => resolve(req && req.result);
      t.onerror = () => reject(t.error);
    });
  }

  // the entries read or written by this page, kept (a decision's signing reads its key once)
  const held = new Map();
  async function read(id) {
    if (!held.has(id)) {
      const entry = await tx("readonly", (s) => s.get(id));
      if (!entry) { return entry; }
      held.set(id, entry);
    }
    return held.get(id);
  }
  async function write(entry) {
    await tx("readwrite", (s) => s.put(entry));
    held.set(entry.id, entry);
  }
  async function drop(id) {
    held.delete(id);
    await tx("readwrite", (s) => s.delete(id));
  }

  // The seat's key, registered if it is not yet; ``make``: made (non-extractable) first when this
  // browser holds none (the join page, as it takes the seat: a seat's page opened elsewhere makes
  // none, and the seat's decisions from there go unsigned until it registers one). Returns
  // {ok, reason}: not ok when the seat registered another key (kept in another browser).
  async function ensure(gameId, seat, token, make) {
    const id = `${gameId}:${seat}`;
    let entry = await read(id);
    if (!entry && !make) { return {ok: true}; }
    if (!entry) {  // at a table (table mode) the referee enters the seats' decisions: no seat key
      const st = await P.api(`/games/${gameId}`, {token});
      if (st.ok && st.body.table) { return {ok: true}; }
    }
    if (!entry) {
      const keys = await crypto.subtle.generateKey({name: "Ed25519"}, false, ["sign", "verify"]);
      entry = {id, keys, registered: false};
      await write(entry);
    }
    if (entry.registered) { return {ok: true}; }
    const pub = hex(await crypto.subtle.exportKey("raw", entry.keys.publicKey));
    const r = await P.api(`/games/${gameId}/seats/${seat}/key`, {token, method: "POST", body: {public_key: pub}});
    if (r.ok) {
      entry.registered = true;
      await write(entry);
      return {ok: true};
    }
    return {ok: false, reason: P.reason(r)};
  }

  // A new device (§6a): this browser makes a key for a seat whose key another device keeps; the
  // player carries its public key (the transfer code) to that device, whose key signs it over
  // (``handOver``). Until then it is not registered here; ``ensure`` registers it once the old
  // device has (the same key again is taken as already registered). Returns the transfer code.
  async function receive(gameId, seat) {
    const id = `${gameId}:${seat}`;
    let entry = await read(id);
    if (!entry || entry.registered) {
      const keys = await crypto.subtle.generateKey({name: "Ed25519"}, false, ["sign", "verify"]);
      entry = {id, keys, registered: false};
      await write(entry);
    }
    return hex(await crypto.subtle.exportKey("raw", entry.keys.publicKey));
  }

  // The old device hands the seat over to the key of ``code`` (another device's transfer code): its
  // key signs canon(["privateer-seat-key-v1", game id, seat, old public key, new public key]), the
  // service registers the new key with that handover, and this browser's key is dropped. {ok, reason}
  async function handOver(gameId, seat, token, code) {
    const id = `${gameId}:${seat}`;
    const entry = await read(id);
    if (!entry || !entry.registered) { return {ok: false, reason: "this browser holds no key of this seat"}; }
    code = (code || "").trim().toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(code)) { return {ok: false, reason: "a transfer code is 64 hex digits"}; }
    const old = new Uint8Array(await crypto.subtle.exportKey("raw", entry.keys.publicKey));
    const message = canon(["privateer-seat-key-v1", unhex(gameId), seat, old, unhex(code)]);
    const handover = hex(await crypto.subtle.sign({name: "Ed25519"}, entry.keys.privateKey, message));
    const r = await P.api(`/games/${gameId}/seats/${seat}/key`,
      {token, method: "POST", body: {public_key: code, handover}});
    if (!r.ok) { return {ok: false, reason: P.reason(r)}; }
    await drop(id);
    return {ok: true};
  }

  // The signature (hex) of this seat's decision at its version (the expected_version it sends).
  async function sign(gameId, seat, version, decision) {
    const entry = await read(`${gameId}:${seat}`);
    if (!entry || !entry.registered) { return null; }
    const message = canon(["privateer-decision-v1", unhex(gameId), seat, version, decision]);
    return hex(await crypto.subtle.sign({name: "Ed25519"}, entry.keys.privateKey, message));
  }

  // (read, write, unhex: the referee's page keeps its own key in the same store, service/http/pages/referee.js)
  window.SeatKey = {ensure, sign, canon, hex, unhex, receive, handOver, read, write};
})();
