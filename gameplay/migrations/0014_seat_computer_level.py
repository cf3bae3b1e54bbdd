from django.db import migrations, models


class Migration(migrations.Migration):
    """The level of a seat's computer player (issue 43): every existing computer seat keeps level 1,
    the heuristic player it has been playing with."""

    dependencies = [
        ('gameplay', '0013_standing_orders'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='computer_level',
            field=models.PositiveSmallIntegerField(default=1, verbose_name='computer level'),
        ),
    ]
