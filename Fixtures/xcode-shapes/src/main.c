// Entry point: calls every shape so nothing is dead code.
extern int shapes_cxx_entry(int);
extern int shapes_objc_entry(int);
extern int shapes_swift_entry(int);

int shapes_sink(int value) { return value * 5 + 1; }
void shapes_run_block(int (^block)(int)) { block(4); }

int main(int argc, char **argv) {
    (void)argv;
    return shapes_cxx_entry(argc) + shapes_objc_entry(argc) + shapes_swift_entry(argc);
}
