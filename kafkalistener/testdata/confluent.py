# A transactional producer and read_committed / read_uncommitted
# consumers with confluent-kafka-python (librdkafka), against the txnlab
# Kafka listener. argv[1] is bootstrap.servers. It prints one JSON line
# of what it saw; the Go test (matrix_test.go) judges it.
import json
import sys

from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

bootstrap = sys.argv[1]
out = {"lib": "librdkafka", "libversion": __import__("confluent_kafka").libversion()[0]}


def producer(client_id):
    return Producer({"bootstrap.servers": bootstrap, "client.id": client_id,
                     "transactional.id": "py-txn", "linger.ms": 5, "compression.type": "lz4"})


def txn(p, values, commit):
    p.begin_transaction()
    for part, v in values:
        p.produce("orders", key=b"k", value=v.encode(), partition=part)
    p.flush(30)
    if commit:
        p.commit_transaction(30)
    else:
        p.abort_transaction(30)


def read(client_id, isolation, want):
    c = Consumer({"bootstrap.servers": bootstrap, "client.id": client_id, "group.id": client_id,
                  "isolation.level": isolation, "enable.auto.commit": False})
    c.assign([TopicPartition("orders", 0, 0), TopicPartition("orders", 1, 0)])
    got = []
    for _ in range(600):
        if len(got) >= want:
            break
        m = c.poll(0.1)
        if m is not None and not m.error():
            got.append(m.value().decode())
    c.close()
    return sorted(got)


p = producer("py-zombie")
p.init_transactions(30)
txn(p, [(0, "c0"), (1, "c1")], True)
txn(p, [(0, "a0")], False)
out["read_committed"] = read("py-rc", "read_committed", 2)
out["read_uncommitted"] = read("py-ru", "read_uncommitted", 3)
succ = producer("py-successor")
succ.init_transactions(30)
try:
    txn(p, [(1, "z1")], True)
    out["zombie"] = "committed"
except KafkaException as e:
    err = e.args[0]
    out["zombie"] = err.name()
print(json.dumps(out))
