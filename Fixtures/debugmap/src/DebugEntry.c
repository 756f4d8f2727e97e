// The debug dylib's entry point: Xcode 16+ (ENABLE_DEBUG_DYLIB) links the app's code into
// App.debug.dylib and the stub executable calls this symbol, which runs the app's main.
int main(int argc, char **argv);

int __debug_main_executable_dylib_entry_point(int argc, char **argv) {
    return main(argc, argv);
}
