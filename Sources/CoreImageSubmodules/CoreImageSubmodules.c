// A C target needs a source file; the target is its module map (include/module.modulemap).
