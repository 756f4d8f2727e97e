#include "CrashApp.h"

int main(int argc, char **argv) {
    int status;
    if (argc > 1) {
        // Test launches pass a scenario argument instead of starting the UI.
        status = app_run_scenario(argc);
    } else {
        status = UIApplicationMain(argc, argv, 0, 0);
    }
    return status & 0xff;
}
