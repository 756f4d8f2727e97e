// Tests land with the issue that fills this target.
