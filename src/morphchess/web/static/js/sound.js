// Move sounds: short beeps made with WebAudio (no sound files), switched on or off by the player.

const KEY = "morphchess.sound";
const TONES = { move: [520, 0.06], capture: [330, 0.12], check: [880, 0.15], end: [262, 0.4] };
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

// Play one of the TONES; returns the tone's name, or null when sounds are off or unavailable.
export function beep(kind) {
  if (!soundOn() || !(window.AudioContext || window.webkitAudioContext)) return null;
  context = context || new (window.AudioContext || window.webkitAudioContext)();
  const [frequency, seconds] = TONES[kind];
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(0.15, context.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + seconds);
  osc.connect(gain).connect(context.destination);
  osc.start();
  osc.stop(context.currentTime + seconds);
  document.body.dataset.lastSound = kind; // for tests and curious readers
  return kind;
}
