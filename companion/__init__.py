"""The composition root: the ``crib`` command and the service behind ``crib serve``.

It is the only package that knows every part (engine, vision, web, firmware) and connects
them from configuration. The parts never import it.
"""
