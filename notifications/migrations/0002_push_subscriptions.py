# Web push devices (notifications/push/models.py), after core's 0001_initial (issue 26).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("notifications", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='PushSubscription',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('endpoint', models.URLField(max_length=1000, unique=True, verbose_name='endpoint')),
                ('p256dh', models.CharField(max_length=100, verbose_name='browser public key')),
                ('auth', models.CharField(max_length=40, verbose_name='auth secret')),
                ('label', models.CharField(max_length=120, verbose_name='device')),
                ('created', models.DateTimeField(auto_now_add=True, verbose_name='turned on')),
                ('last_success', models.DateTimeField(blank=True, null=True, verbose_name='last delivered')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='push_subscriptions', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
            options={
                'verbose_name': 'push device',
                'verbose_name_plural': 'push devices',
                'ordering': ['created', 'pk'],
            },
        ),
    ]
