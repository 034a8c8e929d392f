"""One module per built-in judged data set (a row of :data:`sumeval.datasets.shelf_table.SHELF`
names its module and the function that returns the set's Judgments), and :mod:`.build`, the
helpers they share (reading the registered files, checking MANIFEST's counts, declaring column
roles). :mod:`sumeval.datasets.shelf` imports them by name, only when a set is loaded.
"""
