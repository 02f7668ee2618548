// Swift Testing declares a cross-import overlay for CoreImage (`Testing.swiftcrossimport`),
// shipped on Apple's platforms only: a file that imports Testing and a module named CoreImage
// (directly or through `import Photos`) looks for `_Testing_CoreImage` and fails to compile on
// Linux without it. This empty module is that overlay.
