"""Runs notebook cells on a real Jupyter kernel for the deskbench-jupyter VS Code extension.

One process per notebook. stdin: JSON lines {"id", "code"} (or {"interrupt": true}); stdout: JSON lines
{"id", "output": <nbformat output>} for each output as the kernel sends it, then {"id", "done": true,
"execution_count", "status"}; first of all {"ready": true, "kernel", "language_info"}. The kernel is started with jupyter_client (Debian's python3-jupyter-client) from the
kernelspec named on the command line, else the first of .action-env / python3 that is installed."""
import json
import queue
import sys
import threading

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager


def send(message):
    sys.stdout.write(json.dumps(message) + '\n')
    sys.stdout.flush()


def pick_kernel(wanted):
    names = KernelSpecManager().find_kernel_specs()
    for name in (wanted, '.action-env', 'python3'):
        if name and name in names:
            return name
    return next(iter(names))


def language_info(client):
    """The kernel's language_info (kernel_info_reply), which Jupyter saves in the notebook's metadata."""
    msg_id = client.kernel_info()
    while True:
        reply = client.get_shell_msg(timeout=60)
        if reply['parent_header'].get('msg_id') == msg_id:
            return reply['content'].get('language_info', {})


def main():
    manager = KernelManager(kernel_name=pick_kernel(sys.argv[1] if len(sys.argv) > 1 else None))
    manager.start_kernel()
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    send({'ready': True, 'kernel': manager.kernel_name, 'language_info': language_info(client)})

    requests = queue.Queue()

    def read_stdin():
        for line in sys.stdin:
            request = json.loads(line)
            if request.get('interrupt'):
                manager.interrupt_kernel()
            else:
                requests.put(request)
        requests.put(None)

    threading.Thread(target=read_stdin, daemon=True).start()
    while True:
        request = requests.get()
        if request is None:
            break
        msg_id = client.execute(request['code'], allow_stdin=False)
        execution_count, status = None, 'ok'
        while True:
            message = client.get_iopub_msg()
            if message['parent_header'].get('msg_id') != msg_id:
                continue
            kind, content = message['msg_type'], message['content']
            if kind == 'status' and content['execution_state'] == 'idle':
                break
            if kind == 'execute_input':
                execution_count = content.get('execution_count')
            elif kind == 'stream':
                send({'id': request['id'], 'output': {'output_type': 'stream', 'name': content['name'], 'text': content['text']}})
            elif kind in ('execute_result', 'display_data'):
                output = {'output_type': kind, 'data': content['data'], 'metadata': content.get('metadata', {})}
                if kind == 'execute_result':
                    output['execution_count'] = content.get('execution_count')
                send({'id': request['id'], 'output': output})
            elif kind == 'error':
                status = 'error'
                send({'id': request['id'], 'output': {'output_type': 'error', 'ename': content['ename'],
                                                      'evalue': content['evalue'], 'traceback': content['traceback']}})
            elif kind == 'clear_output':
                send({'id': request['id'], 'clear': True})
        send({'id': request['id'], 'done': True, 'execution_count': execution_count, 'status': status})
    client.stop_channels()
    manager.shutdown_kernel(now=True)


if __name__ == '__main__':
    main()
