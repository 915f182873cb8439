"""Hammers /ws/login with wrong passwords from many client addresses (X-Forwarded-For, for
a server that trusts 127.0.0.1 as its proxy), one asyncio task per address, until killed or
`seconds` pass. Prints how many answers of each kind it got, as JSON, when it ends.

    python3 login_flood.py PORT ADDRESSES SECONDS
"""
import asyncio
import base64
import collections
import json
import os
import signal
import sys


def frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def read_message(reader) -> dict:
    head = await reader.readexactly(2)
    length = head[1] & 0x7F
    if length == 126:
        length = int.from_bytes(await reader.readexactly(2), "big")
    return json.loads(await reader.readexactly(length))


async def one_session(port, address, index, counts):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws/login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nX-Forwarded-For: {address}\r\n\r\n").encode())
    await reader.readuntil(b"\r\n\r\n")
    await read_message(reader)  # ready
    for message in ({"input": "username", "value": f"victim{index}"}, {"input": "password", "value": "wrong"},
                    {"input": "loginTapped"}):
        writer.write(frame(json.dumps(message).encode()))
    while True:
        answer = await read_message(reader)
        if "error" in answer:
            counts[answer["error"]["code"]] += 1
            break
        if answer.get("output") == "loginResult":
            counts["loginResult"] += 1
            break
    writer.close()


async def hammer(port, address, index, counts, deadline):
    loop = asyncio.get_running_loop()
    while loop.time() < deadline:
        try:
            await asyncio.wait_for(one_session(port, address, index, counts), 10)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError):
            counts["failed"] += 1


async def main(port, addresses, seconds):
    counts = collections.Counter()
    deadline = asyncio.get_running_loop().time() + seconds
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    tasks = [asyncio.create_task(hammer(port, f"203.0.113.{i % 250}" if i < 250 else f"198.18.{i // 250}.{i % 250}",
                                        i, counts, deadline)) for i in range(addresses)]
    waiting = asyncio.create_task(stop.wait())
    await asyncio.wait([waiting, asyncio.gather(*tasks)], return_when=asyncio.FIRST_COMPLETED)
    for task in tasks:
        task.cancel()
    print(json.dumps(counts), flush=True)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])))
