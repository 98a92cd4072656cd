"""Attempt: spin on the CPU forever, never printing (hoping the grader waits for it).

The grader must stop it at its time limit (wall clock or CPU, whichever comes first): status
``timeout``, score 0, nothing of it left running, the next submission graded as usual."""

while True:
    pass
