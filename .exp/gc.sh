set -e
cd /work/main
TOKEN=$(node --import tsx -e "
import { prepareDatabase } from './scripts/bench-http/setup.ts';
const d = await prepareDatabase('/tmp/bench.sqlite', 100000); console.log(d.token);
" 2>/dev/null | tail -1)
NODE_ENV=production RATE_LIMIT_PER_MINUTE=0 DATA_DIR=/tmp/gcfiles taskset -c 0 node --trace-gc $EXTRA --import tsx server/cli/main.ts serve --db /tmp/bench.sqlite --port 48201 > /tmp/gc.log 2>&1 &
PID=$!
sleep 6
npx autocannon -c 10 -d 8 -H "authorization=Bearer $TOKEN" http://127.0.0.1:48201/cost-centers/v1/cost-centers 2>&1 | grep -E "Req/Sec|requests in" 
kill $PID; sleep 1
grep -c Scavenge /tmp/gc.log; grep -c "Mark-Compact" /tmp/gc.log; grep -E "Scavenge|Mark" /tmp/gc.log | tail -5
