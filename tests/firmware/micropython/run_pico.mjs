// Runs the Pico's program (firmware/pico) in MicroPython's own interpreter: its WebAssembly port
// (npm @micropython/micropython-webassembly-pyscript) under node, with the stand-ins of
// board.py for the board's machine, neopixel and USB serial.
//
//   node run_pico.mjs MICROPYTHON_MJS PICO_DIR TAPE [keep-ctrl-c]
//
// TAPE is what the host sends: records of (u32 LE arrival in ms, u32 LE length, bytes). The
// program runs until it leaves its loop or the tape ends; what it did comes out on stdout, one
// line each (see board.py): "LED <hex>", "REPLY <hex>", "KBD <n>", "END <why>". keep-ctrl-c
// leaves Ctrl-C on whatever the program asks (the tests' check that a 0x03 would interrupt).
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const [mjs, picoDir, tape, flag] = process.argv.slice(2);
const { loadMicroPython } = await import(mjs);
const here = dirname(fileURLToPath(import.meta.url));
const mp = await loadMicroPython({
  heapsize: 512 * 1024, // a Pico has 264 KB of RAM; MicroPython's heap there is about 190 KB
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdir("/pico");
for (const name of readdirSync(picoDir)) {
  if (name.endsWith(".py") && name !== "__init__.py") {
    mp.FS.writeFile(join("/pico", name), readFileSync(join(picoDir, name)));
  }
}
mp.FS.writeFile("/pico/board.py", readFileSync(join(here, "board.py")));
mp.FS.writeFile("/tape.bin", readFileSync(tape));
try {
  mp.runPython("import sys\nsys.path.insert(0, '/pico')\nimport board\nboard.run('/tape.bin', " + (flag === "keep-ctrl-c" ? "False" : "True") + ")");
} catch (err) {
  process.stdout.write("END error " + String(err).split("\n").join(" | ") + "\n");
  process.exit(1);
}
