// CrashKit: a small record decoder shipped as a framework. It calls back into
// the app for every record, so crash stacks cross CrashKit <-> CrashApp.
#include "CrashKit.h"

typedef struct {
    const unsigned char *base;
    long length;
    long cursor;
} CKCursor;

static inline __attribute__((always_inline)) long ck_remaining(const CKCursor *c) {
    return c->length - c->cursor;
}

static inline __attribute__((always_inline)) long ck_next_record_length(CKCursor *c) {
    long left = ck_remaining(c);
    long n = left > 0 ? (long)(c->base ? c->base[c->cursor] : 1) : 0;
    return n > left ? left : n;
}

__attribute__((noinline))
int ck_dispatch_record(const unsigned char *record, long length, CKRecordHandler handler) {
    int status = handler(record, length);
    return status + (int)length;
}

__attribute__((noinline))
int CKDecodeRecords(const unsigned char *buffer, long length, CKRecordHandler handler) {
    CKCursor cursor = { buffer, length, 0 };
    int total = 0;
    while (ck_remaining(&cursor) > 0) {
        long n = ck_next_record_length(&cursor);
        if (n <= 0) {
            break;
        }
        total += ck_dispatch_record(buffer ? buffer + cursor.cursor : 0, n, handler);
        cursor.cursor += n;
    }
    return total;
}
