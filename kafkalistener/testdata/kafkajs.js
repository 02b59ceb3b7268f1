// A transactional producer and read_committed / read_uncommitted group
// consumers with KafkaJS, against the txnlab Kafka listener. argv[2] is
// the brokers, comma-separated. It prints one JSON line of what it saw;
// the Go test (matrix_test.go) judges it.
const { Kafka, logLevel } = require('kafkajs')

const brokers = process.argv[2].split(',')
const kafka = (clientId) => new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING, retry: { retries: 10 } })

async function txn (producer, values, commit) {
  const t = await producer.transaction()
  try {
    await t.send({ topic: 'orders', messages: values.map(([partition, value]) => ({ partition, key: 'k', value })) })
  } catch (e) {
    await t.abort().catch(() => {})
    throw e
  }
  if (commit) await t.commit(); else await t.abort()
}

async function read (clientId, readUncommitted, want) {
  const c = kafka(clientId).consumer({ groupId: clientId, readUncommitted, maxWaitTimeInMs: 200 })
  await c.connect()
  await c.subscribe({ topic: 'orders', fromBeginning: true })
  const got = []
  await new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, 60000)
    c.run({
      eachMessage: async ({ message }) => {
        got.push(message.value.toString())
        if (got.length >= want) { clearTimeout(timer); resolve() }
      }
    }).catch(reject)
  })
  await c.disconnect().catch(() => {})
  return got.sort()
}

async function main () {
  const out = { lib: 'kafkajs', libversion: require('kafkajs/package.json').version }
  const zombie = kafka('js-zombie').producer({ transactionalId: 'js-txn', maxInFlightRequests: 1, idempotent: true })
  await zombie.connect()
  await txn(zombie, [[0, 'c0'], [1, 'c1']], true)
  await txn(zombie, [[0, 'a0']], false)
  out.read_committed = await read('js-rc', false, 2)
  out.read_uncommitted = await read('js-ru', true, 3)
  const successor = kafka('js-successor').producer({ transactionalId: 'js-txn', maxInFlightRequests: 1, idempotent: true })
  await successor.connect()
  await txn(successor, [[1, 's1']], true)
  try {
    await txn(zombie, [[1, 'z1']], true)
    out.zombie = 'committed'
  } catch (e) {
    out.zombie = e.type || e.name
  }
  await zombie.disconnect().catch(() => {})
  await successor.disconnect().catch(() => {})
  console.log(JSON.stringify(out))
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1) })
