"""The Raspberry Pi Pico's MicroPython program for the peg board (copied flat onto the Pico).

``frames.py`` (the wire protocol and its parser), ``strip.py`` (the NeoPixel strip, the only
module that touches ``machine``/``neopixel``) and ``main.py`` (the loop) are written in the
Python that MicroPython and CPython share, so the tests run the firmware's own parser on the PC.
"""
