// ShopWidget: the widget extension's executable. Built twice (WIDGET_BUILD 1 and 2): the
// archive keeps the dSYM of build 1 and the binary of build 2.
static int __attribute__((noinline)) refresh(int seconds) { return seconds * WIDGET_BUILD; }

int main(int argc, char **argv) {
    (void)argv;
    return refresh(argc);
}
