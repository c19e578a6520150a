#!/usr/bin/env python3
"""A tiny GTK window that offers the paths given on the command line as a file drag
(text/uri-list), so an end-to-end test can do a real OS-level drop driven by xdotool."""
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402

uris = [f"file://{p}" for p in sys.argv[1:]]

window = Gtk.Window(title="pagewise-drag-source")
window.set_default_size(160, 120)
window.move(0, 0)
box = Gtk.EventBox()
box.add(Gtk.Label(label="drag me"))
window.add(box)
box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
box.drag_source_add_uri_targets()


def on_get(_widget, _context, data, _info, _time):
    data.set_uris(uris)


def on_end(*_args):
    Gtk.main_quit()


box.connect("drag-data-get", on_get)
box.connect("drag-end", on_end)
window.connect("destroy", Gtk.main_quit)
window.show_all()
print("ready", flush=True)
Gtk.main()
