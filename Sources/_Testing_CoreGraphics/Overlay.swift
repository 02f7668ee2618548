// Swift Testing declares a cross-import overlay for CoreGraphics (`Testing.swiftcrossimport`),
// shipped on Apple's platforms only: a file that imports Testing and a module named
// CoreGraphics (directly or through `import Photos`) looks for `_Testing_CoreGraphics` and
// fails to compile on Linux without it. This empty module is that overlay, so tests of code
// that uses PhotoKit's Core Graphics types compile with no flags.
