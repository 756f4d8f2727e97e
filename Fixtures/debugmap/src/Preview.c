// Stands in for Xcode's __preview.dylib (the Previews interposer, built from Apple's code).
int __preview_interpose_placeholder(void) { return 0; }
