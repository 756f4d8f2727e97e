#ifndef CRASHKIT_H
#define CRASHKIT_H

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*CKRecordHandler)(const unsigned char *record, long length);

int CKDecodeRecords(const unsigned char *buffer, long length, CKRecordHandler handler);
int ck_dispatch_record(const unsigned char *record, long length, CKRecordHandler handler);
long CKChecksum(const unsigned char *bytes, long length);

#ifdef __cplusplus
}
#endif

#endif
