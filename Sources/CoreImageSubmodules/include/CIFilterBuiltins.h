// Empty: the typed filter builders are Swift, in the CoreImage module (CIFilterBuiltins.swift);
// see module.modulemap.
