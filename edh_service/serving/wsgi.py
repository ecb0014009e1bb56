"""The WSGI app gunicorn serves (make run, Docker, an installed package):

    gunicorn --config python:edh_service.serving.gunicorn_conf edh_service.serving.wsgi:app

Configuration comes from the environment (see config.SETTINGS).
"""

from edh_service.factory import create_app

app = create_app()
