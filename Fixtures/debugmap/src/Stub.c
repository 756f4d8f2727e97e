// Stands in for the stub executable Xcode links from Apple's blank executor: it opens the
// debug dylib named in its __TEXT,__debug_dylib section and calls its entry point. Built
// without -g, as Apple's library is: the team has no debug information for it. (No SDK here:
// dlopen and dlsym are declared, not included.)
void *dlopen(const char *path, int mode);
void *dlsym(void *handle, const char *symbol);

typedef int (*Entry)(int, char **);

int __debug_blank_executor_main(int argc, char **argv) {
    void *handle = dlopen("@rpath/DebugDylibApp.debug.dylib", 2);
    Entry entry = handle ? (Entry)dlsym(handle, "__debug_main_executable_dylib_entry_point") : 0;
    return entry ? entry(argc, argv) : 1;
}
