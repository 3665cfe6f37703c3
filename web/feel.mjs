// What a move feels like besides what it draws: a short sound (synthesized with
// WebAudio: no files) and a buzz (navigator.vibrate) for a card picked, dropped, sent
// home, refused, and a win. Each has its switch (store.mjs prefs: sound, haptics).

import { prefs } from "./store.mjs";

// [frequency Hz, seconds, gain] notes of each event, played one after another
const TUNES = {
  pick: [[660, 0.04, 0.05]],
  drop: [[440, 0.05, 0.06]],
  home: [[784, 0.06, 0.06], [1046, 0.08, 0.05]],
  illegal: [[196, 0.09, 0.07], [165, 0.12, 0.07]],
  win: [[523, 0.12, 0.07], [659, 0.12, 0.07], [784, 0.12, 0.07], [1046, 0.3, 0.07]],
};
// ms of vibration of each event
const BUZZ = { pick: 8, drop: 12, home: [10, 30, 10], illegal: [40, 40, 40], win: [30, 50, 30, 50, 80] };

let audio = null;

export function feel(kind) {
  if (prefs.sound && TUNES[kind]) {
    try {
      audio = audio || new AudioContext();
      let at = audio.currentTime;
      for (const [hz, length, gain] of TUNES[kind]) {
        const osc = audio.createOscillator();
        const amp = audio.createGain();
        osc.type = "triangle";
        osc.frequency.value = hz;
        amp.gain.setValueAtTime(gain, at);
        amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
        osc.connect(amp).connect(audio.destination);
        osc.start(at);
        osc.stop(at + length);
        at += length * 0.8;
      }
    } catch (err) {
      // no sound on this browser
    }
  }
  if (prefs.haptics && BUZZ[kind] && navigator.vibrate) navigator.vibrate(BUZZ[kind]);
}
