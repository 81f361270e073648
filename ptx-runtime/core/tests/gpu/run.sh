#!/usr/bin/env bash
# Run the GPU smoke test: expects smoke and libptxrt-cuda.so in this folder.
cd "$(dirname "$0")"
fail=0
echo "== ok"; PTXRT_NOTIFY=1 PTXRT_DEBUG=1 ./smoke ok || fail=1
echo "== declare"; PTXRT_NOTIFY=1 ./smoke declare || fail=1
for m in badptx notpresent badkernel; do
  echo "== $m (expect exit 1 and one error line)"
  ./smoke $m; rc=$?; echo "rc=$rc"; [ $rc = 1 ] || fail=1
done
echo "== ACC_DEVICE_TYPE=host"; ACC_DEVICE_TYPE=host ./smoke ok; [ $? = 2 ] || fail=1
echo "fail=$fail"; exit $fail
